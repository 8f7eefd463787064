; JavaScript (and JSX). Doc comments are JSDoc `/** */` blocks before an
; element; for an exported element they stand before the `export` statement
; (the engine climbs from the declaration to it). Decorators standing before
; `export` are skipped; decorators of a method or class without `export` are
; part of that node in this grammar, so they show in its signature.
;
; Kinds, at any depth (the engine gives each its owner chain):
; - functions: declarations and generators; arrow functions and function
;   expressions held by any declarator or assigned to any name or member
;   (`exports.f = function`); a module-level named function expression under
;   its own name too (`module.exports = function createApp() {}`: `exports`
;   and `createApp`), and one returned.
; - methods: class methods, accessors and function-valued fields;
;   object-literal methods and function-valued properties (owner: the
;   declarator, member or property holding the object); `Foo.prototype.m =
;   …` (owner: Foo; also an alias, `= Foo.prototype.n`) and the `_proto.m =
;   function m()` of compiled classes.
; - classes: declarations, class expressions held by a declarator, named
;   ones assigned (`module.exports = class CIMap extends Map {}` is CIMap)
;   or returned. The compiled ES5 class (`var C = /*#__PURE__*/function (_B)
;   { … function C() {…} … return C; }(_B)`: an IIFE held by C that declares
;   C) is a function, so that its members are owned by C. A class's
;   supertype is the name or member it extends (`extends a.B` is `B`).
; - values: module-level declarators (`const` ones are constants) and `a.b =
;   value` assignments, also in a top-level `if`, `else` or `try` block.
;   Locals are never captured, and the engine drops any value inside a
;   function, a method or a `@local.scope` node (every function expression,
;   arrow function and static block: callbacks, IIFEs, UMD wrappers). Class
;   fields, and the properties of an object literal held by a module-level
;   declarator or assignment, are fields.
;
; A declarator is the element, so a signature starts at the name
; (`MAX = 10`, `add = (a, b)`).
;
; Cost: the query is compiled once per process and run only at the kinds
; that start a pattern; patterns avoid `member_expression` and function
; nodes as parents with fields (each such step is costly to compile),
; decide a function by a text predicate where they can, and capture values
; from the program down rather than every declarator (the engine would
; gather every local before dropping it).

; What JavaScript shares with TypeScript (the header, docs, imports, local
; scopes, classes, functions, methods, most references) is in
; ecmascript.scm; this file adds JavaScript's own patterns.
; inherits: ecmascript

; An object literal held by a declarator owns its methods and properties.
(variable_declarator name: (identifier) @name value: (object)) @scope

; Supertypes: the class a class extends, a name or a member (`extends
; a.B` is `B`), not an expression (`extends mixin(B)`), for each shape of
; class (ecmascript.scm). The declarator's pattern names the body too: a
; value pattern may have given it the whole class.
(class_declaration (class_heritage [(identifier) (member_expression)] @supertype)) @definition.class
(variable_declarator
  name: (identifier)
  value: (class (class_heritage [(identifier) (member_expression)] @supertype) body: (_) @body)) @definition.class
(assignment_expression right: (class name: (_) (class_heritage [(identifier) (member_expression)] @supertype))) @definition.class
(return_statement (class name: (_) (class_heritage [(identifier) (member_expression)] @supertype)) @definition.class)

; The compiled ES5 class: an IIFE held by C that declares the function C
; (Babel's `var C = /*#__PURE__*/function (_B) {…}(_B)`, tsc's
; `var C = (function (_super) {…}(Base))`).
((variable_declarator
   name: (identifier) @name
   value: [(call_expression
             function: (function_expression
                         body: (statement_block (function_declaration name: (identifier) @_ctor)) @body))
           (parenthesized_expression
             (call_expression
               function: (function_expression
                           body: (statement_block (function_declaration name: (identifier) @_ctor)) @body)))]) @definition.function
 (#eq? @name @_ctor))

; Functions and methods assigned: to a name, to a member (`exports.f =`,
; `module.exports =`, named `exports` as universal-ctags does), to a
; prototype member (a method owned by the constructor: `Shape.prototype.area
; = function`, also when the value is a function named elsewhere:
; `Hash.prototype.has = hashHas`, or another prototype member:
; `Negotiator.prototype.preferredCharset = Negotiator.prototype.charset`) or
; to the `_proto` alias of compiled classes (owned by the class around it).
; The method patterns end where the function pattern (ecmascript.scm) does:
; the engine makes what both capture a method, whatever the order.
((assignment_expression
   left: (member_expression
           object: (member_expression object: (_) @owner property: (property_identifier) @_prototype)
           property: (property_identifier) @name)
   right: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (identifier) (member_expression) @_alias]) @definition.method
 (#eq? @_prototype "prototype")
 (#match? @_alias "\\.prototype\\.[^.]+$"))
((assignment_expression
   left: (member_expression property: (property_identifier) @name) @_left
   right: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (identifier)]) @definition.method
 (#match? @_left "^_proto\\."))

; Function-valued class fields are methods.
(field_definition
  property: (_) @name
  value: [(arrow_function) (function_expression)] @_fn) @definition.method

; Class fields (static or not, `#private` too).
(field_definition property: (_) @name value: (_)? @body) @definition.field

; Values at module level: declarators (`const` ones are constants; a
; destructuring declarator defines each name it binds: `{ a }`, `[a, b]`)
; and values assigned to a member (`exports.x = 1`, `Foo.defaults = {…}`,
; `module.exports = {…}`); declarators in a top-level `if`, `else` or `try`
; block too (all variables there).
; Not the re-exports and resets of compiled modules (`exports.a = a`,
; `exports.a = void 0`), nor a named class (`module.exports = class CIMap
; {}` is the class CIMap, not a value `exports`). These patterns are rooted
; at the program rather than capturing every declarator and letting the
; engine drop the locals, which costs much on large files.
((program
   [(variable_declaration (variable_declarator name: (identifier) @name value: (_)? @body) @definition.variable)
    (lexical_declaration kind: "let" (variable_declarator name: (identifier) @name value: (_)? @body) @definition.variable)
    (lexical_declaration kind: "const" (variable_declarator name: (identifier) @name value: (_)? @body) @definition.constant)
    (expression_statement
      (assignment_expression
        left: (member_expression property: (property_identifier) @name)
        right: (_) @body) @definition.variable)
    (export_statement
      declaration: [(variable_declaration (variable_declarator name: (identifier) @name value: (_)? @body) @definition.variable)
                    (lexical_declaration kind: "let" (variable_declarator name: (identifier) @name value: (_)? @body) @definition.variable)
                    (lexical_declaration kind: "const" (variable_declarator name: (identifier) @name value: (_)? @body) @definition.constant)])
    (variable_declaration
      (variable_declarator
        name: [(object_pattern (shorthand_property_identifier_pattern) @name @definition.variable)
               (array_pattern (identifier) @name @definition.variable)]))
    (lexical_declaration
      (variable_declarator
        name: [(object_pattern (shorthand_property_identifier_pattern) @name @definition.variable)
               (array_pattern (identifier) @name @definition.variable)]))
    (if_statement
      consequence: (statement_block
        [(variable_declaration (variable_declarator name: (identifier) @name value: (_)? @body) @definition.variable)
         (lexical_declaration (variable_declarator name: (identifier) @name value: (_)? @body) @definition.variable)]))
    (if_statement
      alternative: (else_clause
        (statement_block
          [(variable_declaration (variable_declarator name: (identifier) @name value: (_)? @body) @definition.variable)
           (lexical_declaration (variable_declarator name: (identifier) @name value: (_)? @body) @definition.variable)])))
    (try_statement
      body: (statement_block
        [(variable_declaration (variable_declarator name: (identifier) @name value: (_)? @body) @definition.variable)
         (lexical_declaration (variable_declarator name: (identifier) @name value: (_)? @body) @definition.variable)]))])
 (#not-match? @definition.variable "^(module\\.)?exports\\.[A-Za-z0-9_$]+ = ([A-Za-z_$][A-Za-z0-9_$]*|void 0)$")
 (#not-match? @definition.variable "^[^=]*=\\s*class\\s+[A-Za-z_$]"))

; Properties of an object literal held by a module-level declarator or
; assignment (`module.exports = { a: 1 }`, `var defaults = { depth: 5 }`),
; one level deep or two (`exports.codecs = { utf8: { type: "x" } }`).
(program
  [(lexical_declaration (variable_declarator value: (object [(pair key: (_) @name value: (_) @body) @definition.field (pair value: (object (pair key: (_) @name value: (_) @body) @definition.field))])))
   (variable_declaration (variable_declarator value: (object [(pair key: (_) @name value: (_) @body) @definition.field (pair value: (object (pair key: (_) @name value: (_) @body) @definition.field))])))
   (expression_statement (assignment_expression right: (object [(pair key: (_) @name value: (_) @body) @definition.field (pair value: (object (pair key: (_) @name value: (_) @body) @definition.field))])))
   (export_statement declaration: (lexical_declaration (variable_declarator value: (object [(pair key: (_) @name value: (_) @body) @definition.field (pair value: (object (pair key: (_) @name value: (_) @body) @definition.field))]))))])

; A module-level named function expression under another name is also
; defined under its own (`module.exports = function createApp() {}`,
; `var parse = function parseQuery() {}`); so is one returned (`return
; function wrapped() {…}`), and a named class returned (the mixin's `return
; class Mixed extends Base {…}`).
((program
   [(expression_statement
      (assignment_expression
        left: [(identifier) @_as (member_expression property: (property_identifier) @_as)]
        right: (function_expression name: (identifier) @name body: (_) @body) @definition.function))
    (variable_declaration
      (variable_declarator
        name: (identifier) @_as
        value: (function_expression name: (identifier) @name body: (_) @body) @definition.function))])
 (#not-eq? @name @_as))

; References JavaScript adds: JSX components are calls (`<Button>`, not the
; lower-case intrinsic elements); the class a class extends is a type.
((jsx_opening_element name: [(identifier) @name (member_expression property: (property_identifier) @name)]) @reference.call
  (#match? @name "^[A-Z]"))
((jsx_self_closing_element name: [(identifier) @name (member_expression property: (property_identifier) @name)]) @reference.call
  (#match? @name "^[A-Z]"))
(class_heritage
  [(identifier) @name
   (member_expression property: (property_identifier) @name)]) @reference.type
