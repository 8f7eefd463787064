; Swift. Doc comments are `///` lines and `/** */` blocks. Attributes
; (`@MainActor`) sit inside `modifiers`, a child of the declaration, so a doc
; comment directly precedes its declaration node.
; `class_declaration` covers classes, actors, structs, enums and extensions,
; told apart by its `declaration_kind` keyword: `class`/`actor` → classes,
; `struct` → structs, `enum` → enums, `extension` → a scope that owns its
; methods under the extended type's name. Protocols are interfaces.

; Header: the plain comments at the top of the file.
(source_file ((comment) @header (#not-match? @header "^///")))
(source_file ((multiline_comment) @header (#not-match? @header "^/\\*\\*")))

((comment) @doc (#match? @doc "^///"))
((multiline_comment) @doc (#match? @doc "^/\\*\\*"))
(attribute) @attribute

; Imports: the module or symbol path (`Foundation`, `Combine.AnyPublisher`).
(import_declaration (identifier) @import)

; Types.
(class_declaration declaration_kind: ["class" "actor"] name: (type_identifier) @name body: (_) @body) @definition.class
(class_declaration declaration_kind: "struct" name: (type_identifier) @name body: (_) @body) @definition.struct
(class_declaration declaration_kind: "enum" name: (type_identifier) @name body: (_) @body) @definition.enum
(protocol_declaration name: (type_identifier) @name body: (_) @body) @definition.interface

; Extensions own their methods.
(class_declaration declaration_kind: "extension" name: (_) @name) @scope

; Top-level functions.
(source_file
  (function_declaration name: (simple_identifier) @name body: (function_body) @body) @definition.function)

; Methods, initializers, deinitializers and subscripts of types and
; extensions, and protocol requirements.
(class_body
  [(function_declaration name: (simple_identifier) @name body: (function_body) @body)
   (init_declaration body: (function_body)? @body)
   (deinit_declaration body: (function_body) @body)
   (subscript_declaration (computed_property) @body)] @definition.method)
(enum_class_body
  [(function_declaration name: (simple_identifier) @name body: (function_body) @body)
   (init_declaration body: (function_body)? @body)
   (subscript_declaration (computed_property) @body)] @definition.method)
(protocol_body
  [(protocol_function_declaration name: (simple_identifier) @name)
   (init_declaration)
   (subscript_declaration)] @definition.method)

; Top-level `let` / `var`: the first binding with the whole declaration,
; further ones (`let a = 1, b = 2`) with their pattern alone.
(source_file
  (property_declaration
    (value_binding_pattern)
    . name: (pattern bound_identifier: (simple_identifier) @name)
    . (type_annotation)?
    . [value: (_) computed_value: (_)]? @body) @definition.variable)
(source_file
  (property_declaration
    "," . name: (pattern bound_identifier: (simple_identifier) @name) @definition.variable))

; Type-level constants: `static` / `class` properties.
(class_body
  (property_declaration
    (modifiers (property_modifier ["static" "class"]))
    (value_binding_pattern)
    . name: (pattern bound_identifier: (simple_identifier) @name)
    . (type_annotation)?
    . [value: (_) computed_value: (_)]? @body) @definition.variable)
(class_body
  (property_declaration
    (modifiers (property_modifier ["static" "class"]))
    "," . name: (pattern bound_identifier: (simple_identifier) @name) @definition.variable))
(enum_class_body
  (property_declaration
    (modifiers (property_modifier ["static" "class"]))
    (value_binding_pattern)
    . name: (pattern bound_identifier: (simple_identifier) @name)
    . (type_annotation)?
    . [value: (_) computed_value: (_)]? @body) @definition.variable)
(enum_class_body
  (property_declaration
    (modifiers (property_modifier ["static" "class"]))
    "," . name: (pattern bound_identifier: (simple_identifier) @name) @definition.variable))

; Type aliases, like Rust's `type` items.
(source_file
  (typealias_declaration name: (type_identifier) @name "=" . (_) @body) @definition.variable)
