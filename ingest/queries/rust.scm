; Rust. Doc comments are `///` and `/** */` before an item; attributes may
; stand between. `//!` at the top of a file is the header comment.

((line_comment) @header (#match? @header "^//!"))
((block_comment) @header (#match? @header "^/\\*!"))

((line_comment) @doc (#match? @doc "^///"))
((block_comment) @doc (#match? @doc "^/\\*\\*"))
(attribute_item) @attribute

; Imports: the path of each `use`, and `extern crate`.
(use_declaration argument: (_) @import)
(extern_crate_declaration name: (identifier) @import)

; Functions: free functions, and methods in impl and trait blocks.
(function_item name: (identifier) @name body: (block) @body) @definition.function
(function_signature_item name: (identifier) @name) @definition.function

; impl blocks own their methods.
(impl_item type: (_) @name) @scope

; Structs, unions, enums, traits.
(struct_item name: (type_identifier) @name body: (_)? @body) @definition.struct
(union_item name: (type_identifier) @name body: (_) @body) @definition.struct
(enum_item name: (type_identifier) @name body: (_) @body) @definition.enum
(trait_item name: (type_identifier) @name body: (_) @body) @definition.interface

; Module-level constants and statics (not those inside functions).
(source_file
  (const_item name: (identifier) @name value: (_) @body) @definition.variable)
(source_file
  (static_item name: (identifier) @name value: (_) @body) @definition.variable)
(source_file
  (type_item name: (type_identifier) @name type: (_) @body) @definition.variable)
