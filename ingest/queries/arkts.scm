; ArkTS (HarmonyOS). The grammar is a fork of TypeScript's and accepts the
; TypeScript query as it is; this file adds ArkTS's own elements: `struct`
; (ArkUI components) -> structs, their methods -> functions with owner,
; `@interface` annotation declarations -> interfaces, `import lazy`.
; Decorators of a struct, class or function (`@Entry @Component struct`) are
; captured `@attribute` by the TypeScript query and left out of signatures.
; Struct state fields such as `@State msg` are not extracted.
; inherits: typescript

(lazy_import_statement source: (string) @import)

(struct_declaration name: (_) @name body: (_) @body) @definition.struct
(annotation_declaration name: (_) @name body: (_) @body) @definition.interface

(struct_body (method_definition name: (_) @name body: (_) @body) @definition.method)
(struct_body (method_signature name: (_) @name) @definition.method)
(struct_body
  (public_field_definition
    name: (_) @name
    value: [(arrow_function body: (_) @body)
            (function_expression body: (_) @body)]) @definition.method)

; Static struct fields.
(struct_body
  (public_field_definition
    "static"
    name: (_) @name
    value: (_) @body) @definition.variable)
(struct_body
  (public_field_definition "static" name: (_) @name !value) @definition.variable)
