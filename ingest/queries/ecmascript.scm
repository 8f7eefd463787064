; What JavaScript and TypeScript share, word for word: each inherits this
; file (`; inherits: ecmascript`) and adds its own patterns (as
; nvim-treesitter's `ecma`). The kinds and their rules are told at the top
; of javascript.scm and typescript.scm.

; Header: the comments at the very top of the file (the engine keeps the
; leading run only).
(program (comment) @header)

((comment) @doc (#match? @doc "^/\\*\\*"))
(decorator) @attribute

; Imports: the module of `import … from "m"`, `import "m"`,
; `export … from "m"`, `require("m")`, `import("m")`.
(import_statement source: (string) @import)
(export_statement source: (string) @import)
((call_expression
   . function: (identifier) @_require
   arguments: (arguments . (string) @import))
 (#eq? @_require "require"))
(call_expression
  . function: (import)
  arguments: (arguments . (string) @import))

; Function bodies that are not definitions hold locals: callbacks, IIFEs,
; UMD wrappers, static blocks.
(function_expression) @local.scope
(arrow_function) @local.scope
(generator_function) @local.scope
(class_static_block) @local.scope

; Object literals own their methods and properties, under the name of what
; holds them: an assigned name or member, a property (a declarator: in each
; language's file).
(assignment_expression left: [(identifier) (member_expression)] @name right: (object)) @scope
(pair key: (_) @name value: (object)) @scope

; Classes: declarations, and class expressions held by a declarator (the
; value patterns capture an anonymous one too: the engine makes the node the
; class, whatever the order of the matches, its signature cut at the class
; body: `Point = class`, `Foo = class extends Bar`).
(class_declaration name: (_) @name body: (_) @body) @definition.class
(variable_declarator name: (identifier) @name value: (class body: (_) @body)) @definition.class

; A named class expression assigned to a name, a member or a subscript
; (`module.exports = class CIMap extends Map {}`, `SessionCache = class
; SimpleSessionCache {}` in an `if` block, `exports.Foo = class Foo {}`,
; `this.x = class Y {}`): the assignment is the class, under the class's own
; name, and owns its members. (An anonymous one assigned stays a value
; holding a class: rare, and the pattern would cost much to compile.)
(assignment_expression right: (class name: (_) @name body: (_) @body)) @definition.class

; Functions and generators declared anywhere.
(function_declaration name: (identifier) @name body: (_) @body) @definition.function
(generator_function_declaration name: (identifier) @name body: (_) @body) @definition.function

; Functions held by a declarator, or assigned to a name or a member
; (`exports.f = function`).
(variable_declarator
  name: (identifier) @name
  value: [(arrow_function body: (_) @body)
          (function_expression body: (_) @body)
          (generator_function body: (_) @body)]) @definition.function
(assignment_expression
  left: [(identifier) @name (member_expression property: (property_identifier) @name)]
  right: [(arrow_function body: (_) @body) (function_expression body: (_) @body)]) @definition.function

; Methods of classes and object literals (constructors and accessors too),
; function-valued object properties (not the `get`, `set` and `value` of
; property descriptors).
(method_definition name: (_) @name body: (_) @body) @definition.method
((pair
   key: (_) @name
   value: [(arrow_function body: (_) @body) (function_expression body: (_) @body)]) @definition.method
 (#not-any-of? @name "get" "set" "value"))

; A named function expression or class returned is defined under its own
; name (`return function wrapped() {…}`, a mixin's `return class Mixed
; extends Base {…}`).
(return_statement (function_expression name: (identifier) @name body: (_) @body) @definition.function)
(return_statement (class name: (_) @name body: (_) @body) @definition.class)

; References (the tags.scm `@reference.*` convention; the engine keeps one
; per name, kind and line, with the function or class around it as `in`):
; - calls by the called name: `f(…)` and `a.b.f(…)` are `f`; constructors
;   (`new Map()`, `new util.Record()`); decorators (`@sealed`, the call of
;   `@Component({…})` is a call already);
; - types: the class of a call on a capitalized receiver (`Object.keys(…)`;
;   not all-caps `JSON`);
; - imports: each module (`fs/promises`, the `require("m")` of CommonJS)
;   and each imported name (`readFile` of `import { readFile as rf }`).
; Each language's file adds its own (JSX components, types).
(call_expression
  function: [(identifier) @name
             (member_expression property: [(property_identifier) (private_property_identifier)] @name)]) @reference.call
(new_expression
  constructor: [(identifier) @name
                (member_expression property: (property_identifier) @name)]) @reference.call
(decorator [(identifier) @name (member_expression property: (property_identifier) @name)]) @reference.call
((call_expression function: (member_expression object: (identifier) @name)) @reference.type
  (#match? @name "^[A-Z][A-Za-z0-9_$]*[a-z]"))
(import_statement source: (string (string_fragment) @name)) @reference.import
(export_statement source: (string (string_fragment) @name)) @reference.import
(import_specifier name: (identifier) @name) @reference.import
((call_expression
   . function: (identifier) @_require
   arguments: (arguments . (string (string_fragment) @name))) @reference.import
 (#eq? @_require "require"))

; Reads of named values: every identifier read is a candidate; the engine
; keeps those that name a value (upper case, `kName`, or a constant the
; file defines) and are no other kind of use.
(identifier) @name @reference.read
(member_expression property: (property_identifier) @name) @reference.read

; Defaults: a property or name given a literal (or an upper-case constant)
; when it is missing: `opts?.lingerMs ?? 5`, `options.port || 4437`,
; `{ port = 4437 } = options`, `function f(timeout = 5000)`.
(binary_expression
  left: [(member_expression property: (property_identifier) @name) (identifier) @name]
  operator: ["??" "||"]
  right: [(number) (string) (template_string) (true) (false) (null) (array) (object) (unary_expression)]) @reference.default
((binary_expression
  left: [(member_expression property: (property_identifier) @name) (identifier) @name]
  operator: ["??" "||"]
  right: (identifier) @_value) @reference.default
  (#match? @_value "^[A-Z][A-Z0-9_]+$"))
(object_assignment_pattern
  left: (shorthand_property_identifier_pattern) @name
  right: [(number) (string) (template_string) (true) (false) (null) (array) (object) (unary_expression)]) @reference.default
(assignment_pattern
  left: (identifier) @name
  right: [(number) (string) (template_string) (true) (false) (null) (array) (object) (unary_expression)]) @reference.default
