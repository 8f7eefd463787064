; TypeScript. Doc comments are JSDoc `/** */` blocks before an element; for an
; exported element they stand before the `export` statement (the engine
; climbs from the declaration to it). Decorators between doc and element are
; skipped, and left out of signatures.
;
; Kinds, at any depth (the engine gives each its owner chain; namespaces and
; modules are scopes that own what they declare):
; - classes (abstract ones too; class expressions held by a declarator,
;   named ones assigned or returned, as in JavaScript), interfaces, type
;   aliases (`type`), enums. Supertypes: a class's `extends` (a name or a
;   member) and `implements`, an interface's `extends`, as bare names.
; - functions: declarations, generators and signatures (overloads, `declare
;   function`); arrow functions and function expressions held by any
;   declarator or assigned to any name or member (`exports.f = function`).
; - methods: class methods, accessors, overload and abstract signatures,
;   function-valued fields; interface methods; object-literal methods and
;   function-valued properties. (The compiled-JavaScript shapes of the
;   JavaScript query, ES5 classes and prototypes, are left out: rare in
;   TypeScript sources, and costly to compile.)
; - values: module-level declarators (`const` ones are constants, `declare`
;   ones too) and `a.b = value` assignments, also in a top-level `if`
;   block; namespace-level declarators (fields of the namespace). Locals are never captured, and the engine drops any value
;   inside a function, a method or a `@local.scope` node (every function
;   expression, arrow function and static block). Class fields (and
;   constructor parameter properties), interface properties, the properties of an object type aliased and of an object
;   literal held by a module-level declarator or assignment are fields.
;
; A declarator is the element, so a signature starts at the name
; (`MAX: number`, `add = (a: number, b: number): number`).
;
; Cost: the query is compiled once per process and run only at the kinds
; that start a pattern; patterns avoid `member_expression` and function
; nodes as parents with fields (each such step is costly to compile),
; decide a function by a text predicate where they can, and capture values
; from the program down rather than every declarator (the engine would
; gather every local before dropping it).

; What TypeScript shares with JavaScript (the header, docs, imports, local
; scopes, classes, functions, methods, most references) is in
; ecmascript.scm; this file adds TypeScript's own patterns.
; inherits: ecmascript

; Imports TypeScript adds: the module of `import x = require("m")`.
(import_require_clause source: (string) @import)

; Namespaces and modules own what they declare.
(internal_module name: (_) @name) @scope
(module name: [(identifier) (nested_identifier)] @name) @scope
(module name: (string (string_fragment) @name)) @scope

; An object literal held by a declarator, also `{…} as const` and `{…}
; satisfies T`, owns its methods and properties.
(variable_declarator name: (identifier) @name value: [(object) (as_expression (object)) (satisfies_expression (object))]) @scope

; Abstract classes (the other shapes of class: ecmascript.scm).
(abstract_class_declaration name: (_) @name body: (_) @body) @definition.class

; Interfaces, type aliases, enums.
(interface_declaration name: (_) @name body: (_) @body) @definition.interface
(type_alias_declaration name: (_) @name value: (_) @body) @definition.type
(enum_declaration name: (_) @name body: (_) @body) @definition.enum

; Supertypes: the class a class extends (a name or a member, not an
; expression: `extends mixin(B)`) and the interfaces it implements, for each
; shape of class (here and in ecmascript.scm); the interfaces an
; interface extends. The engine drops generic arguments and qualifiers. The
; declarator's pattern names the body too: a value pattern may have given it
; the whole class.
(class_declaration
  (class_heritage
    [(extends_clause value: [(identifier) (member_expression)] @supertype)
     (implements_clause [(type_identifier) (nested_type_identifier) (generic_type)] @supertype)])) @definition.class
(abstract_class_declaration
  (class_heritage
    [(extends_clause value: [(identifier) (member_expression)] @supertype)
     (implements_clause [(type_identifier) (nested_type_identifier) (generic_type)] @supertype)])) @definition.class
(variable_declarator
  name: (identifier)
  value: (class
    (class_heritage
      [(extends_clause value: [(identifier) (member_expression)] @supertype)
       (implements_clause [(type_identifier) (nested_type_identifier) (generic_type)] @supertype)])
    body: (_) @body)) @definition.class
(assignment_expression
  right: (class
    name: (_)
    (class_heritage
      [(extends_clause value: [(identifier) (member_expression)] @supertype)
       (implements_clause [(type_identifier) (nested_type_identifier) (generic_type)] @supertype)]))) @definition.class
(return_statement
  (class
    name: (_)
    (class_heritage
      [(extends_clause value: [(identifier) (member_expression)] @supertype)
       (implements_clause [(type_identifier) (nested_type_identifier) (generic_type)] @supertype)])) @definition.class)
(interface_declaration
  (extends_type_clause type: [(type_identifier) (nested_type_identifier) (generic_type)] @supertype)) @definition.interface

; Function signatures (overloads, `declare function`).
(function_signature name: (identifier) @name) @definition.function

; Methods TypeScript adds: overload and abstract signatures, methods of
; interfaces and of object types aliased, function-valued class fields.
(class_body [(method_signature name: (_) @name) (abstract_method_signature name: (_) @name)] @definition.method)
(interface_body (method_signature name: (_) @name) @definition.method)
(type_alias_declaration value: (object_type (method_signature name: (_) @name) @definition.method))
(public_field_definition
  name: (_) @name
  value: [(arrow_function) (function_expression)] @_fn) @definition.method

; Fields: of classes (static or not, `#private`, `declare` and abstract ones
; too), interface properties, the properties of an object type aliased
; (`type Options = { depth: number }`).
(public_field_definition name: (_) @name value: (_)? @body) @definition.field
(interface_body (property_signature name: (_) @name) @definition.field)

; Parameter properties: `constructor(private readonly repo: Repo, public
; name = "")` declares the class fields `repo` and `name` (an accessibility
; modifier, `readonly` or `override` makes a parameter a field). The
; constructor's parameter list is a namespace, so that these fields are not
; the constructor's locals (a namespace is never a reference's `in`), and
; each field names its class as `@owner` (its bare name: `Nightly`, not the
; `Jobs.Nightly` of a class in a namespace).
((method_definition name: (property_identifier) @name parameters: (formal_parameters) @namespace)
 (#eq? @name "constructor"))
([(class_declaration
    name: (_) @owner
    body: (class_body
      (method_definition
        name: (property_identifier) @_ctor
        parameters: (formal_parameters
          [(required_parameter [(accessibility_modifier) (override_modifier) "readonly"] pattern: (identifier) @name value: (_)? @body)
           (optional_parameter [(accessibility_modifier) (override_modifier) "readonly"] pattern: (identifier) @name value: (_)? @body)] @definition.field))))
  (abstract_class_declaration
    name: (_) @owner
    body: (class_body
      (method_definition
        name: (property_identifier) @_ctor
        parameters: (formal_parameters
          [(required_parameter [(accessibility_modifier) (override_modifier) "readonly"] pattern: (identifier) @name value: (_)? @body)
           (optional_parameter [(accessibility_modifier) (override_modifier) "readonly"] pattern: (identifier) @name value: (_)? @body)] @definition.field))))]
 (#eq? @_ctor "constructor"))
(type_alias_declaration value: (object_type (property_signature name: (_) @name) @definition.field))

; Values at module level: declarators (`const` ones are constants, `declare`
; ones are variables; a destructuring declarator defines each name it binds:
; `{ a }`, `[a, b]`) and values assigned to a member (`exports.x = 1`,
; `Foo.defaults = {…}`); declarators in a top-level `if` block too (all
; variables there).
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
    (ambient_declaration
      [(variable_declaration (variable_declarator name: (identifier) @name) @definition.variable)
       (lexical_declaration (variable_declarator name: (identifier) @name) @definition.variable)])
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
         (lexical_declaration (variable_declarator name: (identifier) @name value: (_)? @body) @definition.variable)]))])
 (#not-match? @definition.variable "^(module\\.)?exports\\.[A-Za-z0-9_$]+ = ([A-Za-z_$][A-Za-z0-9_$]*|void 0)$")
 (#not-match? @definition.variable "^[^=]*=\\s*class\\s+[A-Za-z_$]"))

; Properties of an object literal held by a module-level declarator or
; assignment (`module.exports = { a: 1 }`, `var defaults = { depth: 5 }`),
; and of a module-level constant `{…} as const` (one level deep).
(program
  [(lexical_declaration (variable_declarator value: (as_expression (object (pair key: (_) @name value: (_) @body) @definition.field))))
   (export_statement
     declaration: (lexical_declaration
                    (variable_declarator value: (as_expression (object (pair key: (_) @name value: (_) @body) @definition.field)))))])
(program
  [(lexical_declaration (variable_declarator value: (object (pair key: (_) @name value: (_) @body) @definition.field)))
   (variable_declaration (variable_declarator value: (object (pair key: (_) @name value: (_) @body) @definition.field)))
   (expression_statement (assignment_expression right: (object (pair key: (_) @name value: (_) @body) @definition.field)))
   (export_statement declaration: (lexical_declaration (variable_declarator value: (object (pair key: (_) @name value: (_) @body) @definition.field))))])

; Values declared in a namespace or module (its fields: the engine makes a
; value directly in a scope a field).
(internal_module
  body: (statement_block
    [(lexical_declaration (variable_declarator name: (identifier) @name value: (_)? @body) @definition.variable)
     (variable_declaration (variable_declarator name: (identifier) @name value: (_)? @body) @definition.variable)
     (export_statement
       declaration: [(lexical_declaration (variable_declarator name: (identifier) @name value: (_)? @body) @definition.variable)
                     (variable_declaration (variable_declarator name: (identifier) @name value: (_)? @body) @definition.variable)])]))
(module
  body: (statement_block
    [(lexical_declaration (variable_declarator name: (identifier) @name value: (_)? @body) @definition.variable)
     (variable_declaration (variable_declarator name: (identifier) @name value: (_)? @body) @definition.variable)
     (export_statement
       declaration: [(lexical_declaration (variable_declarator name: (identifier) @name value: (_)? @body) @definition.variable)
                     (variable_declaration (variable_declarator name: (identifier) @name value: (_)? @body) @definition.variable)])]))

; Enum members are constants owned by their enum.
(enum_body
  [(property_identifier) @name
   (string (string_fragment) @name)] @definition.constant)
(enum_body
  (enum_assignment
    name: [(property_identifier) @name (string (string_fragment) @name)]
    value: (_) @body) @definition.constant)

; References TypeScript adds (the others: ecmascript.scm):
; - types: every type name (annotations, generic arguments, `implements`,
;   interface `extends`, `util.Named` is `Named`; also a type parameter's
;   own name, `T` of `<T extends R>`, which the grammar spells the same),
;   and the class a class extends (an expression in this grammar);
; - imports: the module of `import x = require("m")`.
(type_identifier) @name @reference.type
(extends_clause
  value: [(identifier) @name
          (member_expression property: (property_identifier) @name)]) @reference.type
(import_require_clause source: (string (string_fragment) @name)) @reference.import
