; Go. Every `//` (or `/* */`) comment touching a declaration is its doc comment
; (Go convention); a blank line breaks the run. The comments before `package`
; (the package doc, licence, build tags) are the header.
; Methods are not nested in their receiver type: their owner is the receiver
; type (`@owner`); interface methods are owned by their interface. Grouped declarations (`const (...)`, `var (...)`, `type (...)`)
; yield one element per spec.

((source_file (comment) @header))

; Compiler directives (`//go:noinline`, `//export f`, `//line`) are not doc
; text (go/doc drops them): skipped between the doc and the declaration.
((comment) @doc
  (#not-match? @doc "^//(line |extern |export |[a-z0-9]+:[a-z0-9])"))
((comment) @attribute
  (#match? @attribute "^//(line |extern |export |[a-z0-9]+:[a-z0-9])"))

; Imports: each path, unquoted.
(import_spec path: (_) @import)

; Functions and methods.
(function_declaration
  name: (identifier) @name
  body: (block)? @body) @definition.function
(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: [
        (type_identifier) @owner
        (pointer_type (type_identifier) @owner)
        (generic_type type: (type_identifier) @owner)
        (pointer_type (generic_type type: (type_identifier) @owner))
      ]))
  name: (field_identifier) @name
  body: (block)? @body) @definition.method

; Interface methods, owned by their interface.
(interface_type
  (method_elem name: (field_identifier) @name) @definition.method)

; Types: a single `type X ...` is the whole declaration (signature keeps
; `type`); in a `type (...)` group each spec is its own element.
(source_file
  (type_declaration
    (type_spec
      name: (type_identifier) @name
      type: (struct_type (field_declaration_list) @body))) @definition.struct
  (#not-match? @definition.struct "^type\\s*\\("))
(source_file
  (type_declaration
    (type_spec
      name: (type_identifier) @name
      type: (interface_type . (_)? @body))) @definition.interface
  (#not-match? @definition.interface "^type\\s*\\("))
(source_file
  (type_declaration
    (type_spec
      name: (type_identifier) @name
      type: (struct_type (field_declaration_list) @body)) @definition.struct)
  @_group (#match? @_group "^type\\s*\\("))
(source_file
  (type_declaration
    (type_spec
      name: (type_identifier) @name
      type: (interface_type . (_)? @body)) @definition.interface)
  @_group (#match? @_group "^type\\s*\\("))

; Other named types and aliases (`type ID int`, `type A = B`) are recorded
; as variables, like Rust's `type` items; the signature is their first line.
(source_file
  (type_declaration
    [
      (type_spec
        name: (type_identifier) @name
        type: [(type_identifier) (generic_type) (qualified_type) (pointer_type)
               (array_type) (slice_type) (map_type) (channel_type)
               (function_type) (parenthesized_type) (negated_type)])
      (type_alias name: (type_identifier) @name)
    ]) @definition.variable
  (#not-match? @definition.variable "^type\\s*\\("))
(source_file
  (type_declaration
    [
      (type_spec
        name: (type_identifier) @name
        type: [(type_identifier) (generic_type) (qualified_type) (pointer_type)
               (array_type) (slice_type) (map_type) (channel_type)
               (function_type) (parenthesized_type) (negated_type)])
      (type_alias name: (type_identifier) @name)
    ] @definition.variable)
  @_group (#match? @_group "^type\\s*\\("))

; Top-level constants and variables (never locals): a single declaration is
; the whole `const X = ...`; in a group each spec is its own element.
(source_file
  (const_declaration
    (const_spec name: (identifier) @name value: (_)? @body)) @definition.variable
  (#not-match? @definition.variable "^const\\s*\\("))
(source_file
  (const_declaration
    (const_spec name: (identifier) @name value: (_)? @body) @definition.variable)
  @_group (#match? @_group "^const\\s*\\("))
(source_file
  (var_declaration
    (var_spec name: (identifier) @name value: (_)? @body)) @definition.variable)
(source_file
  (var_declaration
    (var_spec_list
      (var_spec name: (identifier) @name value: (_)? @body) @definition.variable)))
