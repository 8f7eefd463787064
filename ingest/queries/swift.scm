; Swift.
;
; Conventions:
; - Doc comments are `///` lines and `/** */` blocks. Attributes
;   (`@MainActor`) sit inside `modifiers`, a child of the declaration, so a doc
;   comment directly precedes its declaration node.
; - `class_declaration` covers classes, actors, structs, enums and extensions,
;   told apart by its `declaration_kind` keyword: `class`/`actor` -> classes,
;   `struct` -> structs, `enum` -> enums, `extension` -> a scope that owns its
;   members under the extended type's name. Protocols are interfaces. Types
;   are matched at any depth (also inside functions), and `typealias` /
;   `associatedtype` are types.
; - Supertypes: the inheritance clause of a class, actor, struct, enum or
;   protocol (an enum's raw-value type too: it reads like a conformance), and
;   an extension's conformances, given to the file's type it extends.
; - A `func` directly in a type, extension or enum body is a method; any other
;   `func` (at file level, or in a function, closure or block) is a function
;   owned by what encloses it. Initializers, deinitializers, subscripts and
;   protocol requirements are methods. Operator functions (`static func ==`)
;   are named by their operator.
; - Values: `let`/`var` directly at file level are constants/variables (also
;   between `#if` lines: directives are siblings, not wrappers); directly in a
;   type or extension body, and protocol property requirements, they are
;   fields; enum cases are constants of their enum. Declarations inside
;   functions, closures, computed properties, observers and `if`/`for`/`do`
;   blocks (all block-scoped in Swift) are never captured, so no
;   `@local.scope` is needed.

; Header: the plain comments at the top of the file.
(source_file ((comment) @header (#not-match? @header "^///")))
(source_file ((multiline_comment) @header (#not-match? @header "^/\\*\\*")))

((comment) @doc (#match? @doc "^///"))
((multiline_comment) @doc (#match? @doc "^/\\*\\*"))
(attribute) @attribute

; Imports: the module or symbol path (`Foundation`, `Combine.AnyPublisher`).
(import_declaration (identifier) @import)

; Types, at any depth.
(class_declaration declaration_kind: ["class" "actor"] name: (type_identifier) @name body: (_) @body) @definition.class
(class_declaration declaration_kind: "struct" name: (type_identifier) @name body: (_) @body) @definition.struct
(class_declaration declaration_kind: "enum" name: (type_identifier) @name body: (_) @body) @definition.enum
(protocol_declaration name: (type_identifier) @name body: (_) @body) @definition.interface
(typealias_declaration name: (type_identifier) @name "=" . (_) @body) @definition.type
(associatedtype_declaration name: (type_identifier) @name) @definition.type

; Supertypes: the inheritance clause of classes, actors, structs, enums and
; protocols (superclass and conformances alike; the engine keeps each type's
; bare name, `Foundation.Q` -> `Q`). An enum's raw-value type (`enum E: Int`)
; is written like a conformance and cannot be told from one without types: it
; is kept. A suppressed conformance (`~Copyable`, a `suppressed_constraint`,
; not a `user_type`) is no supertype.
(class_declaration
  declaration_kind: ["class" "actor"]
  (inheritance_specifier inherits_from: (user_type) @supertype)) @definition.class
(class_declaration
  declaration_kind: "struct"
  (inheritance_specifier inherits_from: (user_type) @supertype)) @definition.struct
(class_declaration
  declaration_kind: "enum"
  (inheritance_specifier inherits_from: (user_type) @supertype)) @definition.enum
(protocol_declaration
  (inheritance_specifier inherits_from: (user_type) @supertype)) @definition.interface

; Extensions own their members; their conformances (`extension A: P, Q`) are
; supertypes of the file's type of that name, when the file defines it (an
; extension of a nested type, `extension A.B: P`, names no type of the file
; and gives none). One pattern, the conformances quantified with their
; commas (without them tree-sitter takes the first one only): each match of
; a scope's pattern would open the scope once more.
(class_declaration
  declaration_kind: "extension"
  name: (_) @name
  ((inheritance_specifier inherits_from: (user_type) @supertype) ","?)*) @scope

; Query cost: compiling a query analyzes every step against Swift's large
; grammar; a step on a function's `body:` or a value after an optional type
; annotation costs a large fraction of a second each (the old query took
; about 1.3 s to compile, on every run). So a function's body is taken as its
; last child (`(_) @body .`, which also matches the last parameter inside the
; hidden parameter list: only a node starting with `{` is kept; a closure as
; the last parameter's default value still wins, cutting that signature
; there), and the optional parts of properties have patterns of their own.

; Methods: a `func` directly in a type or extension body. The name is the
; node right after `func` (the grammar also labels the return type `name`),
; an identifier or an operator token; the body is the last child. The engine
; strips `<` and `>` around names (as around `<stdio.h>`), so the comparison
; and shift operators stay unnamed rather than misnamed.
([(class_body (function_declaration "func" . name: _ @name (_) @body .) @definition.method)
  (enum_class_body (function_declaration "func" . name: _ @name (_) @body .) @definition.method)]
  (#not-match? @name "^[<>]|[<>]$")
  (#match? @body "^\\{"))
([(class_body (function_declaration "func" . name: _ @_op (_) @body .) @definition.method)
  (enum_class_body (function_declaration "func" . name: _ @_op (_) @body .) @definition.method)]
  (#match? @_op "^[<>]|[<>]$")
  (#match? @body "^\\{"))

; Functions: a `func` at file level or in any block (a function's or closure's
; body, an `if`/`for`/`do` block): owned by the functions around it.
([(source_file (function_declaration "func" . name: _ @name (_) @body .) @definition.function)
  (statements (function_declaration "func" . name: _ @name (_) @body .) @definition.function)]
  (#not-match? @name "^[<>]|[<>]$")
  (#match? @body "^\\{"))
([(source_file (function_declaration "func" . name: _ @_op (_) @body .) @definition.function)
  (statements (function_declaration "func" . name: _ @_op (_) @body .) @definition.function)]
  (#match? @_op "^[<>]|[<>]$")
  (#match? @body "^\\{"))

; Initializers, deinitializers and subscripts (only ever members, named by
; their keyword: `init`, `deinit`, `subscript`), and protocol requirements.
(init_declaration name: _ @name body: (function_body)? @body) @definition.method
(deinit_declaration "deinit" @name body: (function_body) @body) @definition.method
(subscript_declaration "subscript" @name (computed_property)? @body) @definition.method
((protocol_function_declaration "func" . name: _ @name) @definition.method
  (#not-match? @name "^[<>]|[<>]$"))
((protocol_function_declaration "func" . name: _ @_op) @definition.method
  (#match? @_op "^[<>]|[<>]$"))
(protocol_property_declaration name: (pattern bound_identifier: (simple_identifier) @name)) @definition.field

; Macros are declared like functions.
(macro_declaration (simple_identifier) @name definition: (_)? @body) @definition.function

; File-level `let` (constants) and `var` (variables): the first binding with
; the whole declaration, further ones (`let a = 1, b = 2`) with their pattern
; alone. The cut at the value or the computed body comes from patterns of
; their own (same node and kind: the engine merges them, and the first body
; in the text wins); a property with observers and no value is cut at its
; first line.
(source_file
  (property_declaration
    (value_binding_pattern mutability: "let")
    . name: (pattern bound_identifier: (simple_identifier) @name)) @definition.constant)
(source_file
  (property_declaration
    (value_binding_pattern mutability: "var")
    . name: (pattern bound_identifier: (simple_identifier) @name)) @definition.variable)
(source_file
  (property_declaration
    (value_binding_pattern mutability: "let")
    "," . name: (pattern bound_identifier: (simple_identifier) @name) @definition.constant))
(source_file
  (property_declaration
    (value_binding_pattern mutability: "var")
    "," . name: (pattern bound_identifier: (simple_identifier) @name) @definition.variable))
(source_file
  (property_declaration
    (value_binding_pattern mutability: "let")
    name: (pattern bound_identifier: (simple_identifier))
    value: _ @body) @definition.constant)
(source_file
  (property_declaration
    (value_binding_pattern mutability: "var")
    name: (pattern bound_identifier: (simple_identifier))
    value: _ @body) @definition.variable)
(source_file
  (property_declaration
    (value_binding_pattern mutability: "var")
    computed_value: _ @body) @definition.variable)

; Properties of types and extensions (stored, computed, `static`, `lazy`):
; fields, the same way.
[(class_body
   (property_declaration
     (value_binding_pattern)
     . name: (pattern bound_identifier: (simple_identifier) @name)) @definition.field)
 (enum_class_body
   (property_declaration
     (value_binding_pattern)
     . name: (pattern bound_identifier: (simple_identifier) @name)) @definition.field)]
[(class_body
   (property_declaration
     (value_binding_pattern)
     "," . name: (pattern bound_identifier: (simple_identifier) @name) @definition.field))
 (enum_class_body
   (property_declaration
     (value_binding_pattern)
     "," . name: (pattern bound_identifier: (simple_identifier) @name) @definition.field))]
[(class_body
   (property_declaration
     name: (pattern bound_identifier: (simple_identifier))
     value: _ @body) @definition.field)
 (enum_class_body
   (property_declaration
     name: (pattern bound_identifier: (simple_identifier))
     value: _ @body) @definition.field)]
[(class_body
   (property_declaration computed_value: _ @body) @definition.field)
 (enum_class_body
   (property_declaration computed_value: _ @body) @definition.field)]

; Enum cases: constants of their enum. The first case of a line with the
; whole entry (cut at a raw value), further ones (`case a, b`) by name.
(enum_entry "case" . name: (simple_identifier) @name) @definition.constant
(enum_entry "case" . name: (simple_identifier) @name . "=" . raw_value: (_) @body) @definition.constant
(enum_entry "," . name: (simple_identifier) @name @definition.constant)

; References (the tags.scm `@reference.*` convention; the engine keeps one
; per name, kind and line, with the function, method or type around it as
; `in`):
; - calls by the called name: `f(…)`, `a.b.f(…)`, `.success(…)` are `f`,
;   `success`; initializers are calls (`JSONEncoder()`, `Writer(sink: s)`);
; - types: every type name (`user_type`: annotations, generic arguments,
;   conformances and superclasses, extended types; also a type parameter's
;   bound), and the type of a call on a capitalized receiver
;   (`Date.now()`, `URL.init(…)`; not all-caps constants);
; - imports: the module or symbol path (`Foundation`).
(call_expression
  . [(simple_identifier) @name
     (navigation_expression suffix: (navigation_suffix suffix: (simple_identifier) @name))
     (prefix_expression target: (simple_identifier) @name)]) @reference.call
((call_expression
   . (navigation_expression target: (simple_identifier) @name)) @reference.type
  (#match? @name "^[A-Z][A-Za-z0-9_]*[a-z]"))
(user_type (type_identifier) @name) @reference.type
(import_declaration (identifier) @name) @reference.import

; Reads of named values: every identifier read is a candidate; the engine
; keeps those that name a value (upper case, `kName`, or a constant the
; file defines) and are no other kind of use.
(simple_identifier) @name @reference.read
