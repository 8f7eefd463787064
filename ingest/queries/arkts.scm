; ArkTS (HarmonyOS). The grammar is a fork of TypeScript's and accepts the
; TypeScript query as it is; this file adds ArkTS's own elements: `struct`
; (ArkUI components) -> structs, `@interface` annotation declarations ->
; interfaces, `import lazy`. The TypeScript patterns rooted at
; `method_definition` and `public_field_definition` hold in a struct body
; too: its methods and its fields (state fields such as `@State msg`, their
; decorators captured `@attribute` and left out of signatures) come with the
; struct as owner. Decorators of a struct, class or function (`@Entry
; @Component struct`) are left out of signatures too. A struct's supertypes
; are those of its heritage clause, as a class's.
; inherits: typescript

(lazy_import_statement source: (string) @import)

(struct_declaration name: (_) @name body: (_) @body) @definition.struct
(struct_declaration
  (class_heritage
    [(extends_clause value: [(identifier) (member_expression)] @supertype)
     (implements_clause [(type_identifier) (nested_type_identifier) (generic_type)] @supertype)])) @definition.struct
(annotation_declaration name: (_) @name body: (_) @body) @definition.interface

; Method signatures of a struct (those of a class come from the TypeScript
; query).
(struct_body (method_signature name: (_) @name) @definition.method)

; ArkUI components in a `build()` (`Column() { … }`) are calls.
(arkui_component_expression function: (identifier) @name) @reference.call
