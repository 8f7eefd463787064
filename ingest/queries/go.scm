; Go. Every `//` (or `/* */`) comment touching a declaration is its doc comment
; (Go convention); a blank line breaks the run. The comments before `package`
; (the package doc, licence, build tags) are the header.
;
; Definitions: functions, methods, named types (struct, interface, other
; types and aliases) at any depth (a type declared in a function is owned by
; it), package-level constants and variables, struct fields and interface
; methods. Methods are not nested in their receiver type: their owner is the
; receiver type (`@owner`); fields and interface methods are owned by their
; type. Grouped declarations (`const (...)`, `var (...)`, `type (...)`) yield
; one element per spec, and a spec naming several identifiers (`a, b int`)
; one element per name: the spec for the first name, the bare identifier for
; the others (the engine keys an element by its node).
; Function locals never appear: values are only captured at package level
; (direct children of `source_file`) or as struct fields, and the engine drops
; fields of anonymous structs declared in a function or a func literal. An
; anonymous struct's fields are owned by the variable or field it types
; (`@scope`). The blank identifier `_` is never an element. A struct's
; supertypes are its embedded types, an interface's its embedded interfaces.

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
((function_declaration
  name: (identifier) @name
  body: (block)? @body) @definition.function
  (#not-eq? @name "_"))
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

; Func literals are local scopes: a value inside one (a field of an anonymous
; struct in a closure assigned to a package variable) is a local.
(func_literal) @local.scope

; Interface methods, owned by their named interface (not those of an
; anonymous `interface{ M() }` in a parameter or a type assertion).
[
  (type_spec
    type: (interface_type
      (method_elem name: (field_identifier) @name) @definition.method))
  (type_alias
    type: (interface_type
      (method_elem name: (field_identifier) @name) @definition.method))
]

; Types, at any depth: a single `type X ...` is the whole declaration
; (signature keeps `type`); in a `type (...)` group each spec is its own
; element. Structs and interfaces are cut at their body; other named types
; and aliases (`type ID int`, `type A = B`) are `type`, signature on one line.
((type_declaration
  (type_spec
    name: (type_identifier) @name
    type: (struct_type (field_declaration_list) @body))) @definition.struct
  (#not-match? @definition.struct "^type\\s*\\("))
((type_declaration
  (type_spec
    name: (type_identifier) @name
    type: (interface_type . (_)? @body))) @definition.interface
  (#not-match? @definition.interface "^type\\s*\\("))
((type_declaration
  [
    (type_spec
      name: (type_identifier) @name
      type: [(type_identifier) (generic_type) (qualified_type) (pointer_type)
             (array_type) (slice_type) (map_type) (channel_type)
             (function_type) (parenthesized_type) (negated_type)])
    (type_alias name: (type_identifier) @name)
  ]) @definition.type
  (#not-match? @definition.type "^type\\s*\\("))
((type_declaration
  (type_spec
    name: (type_identifier) @name
    type: (struct_type (field_declaration_list) @body)) @definition.struct)
  @_group (#match? @_group "^type\\s*\\("))
((type_declaration
  (type_spec
    name: (type_identifier) @name
    type: (interface_type . (_)? @body)) @definition.interface)
  @_group (#match? @_group "^type\\s*\\("))
((type_declaration
  [
    (type_spec
      name: (type_identifier) @name
      type: [(type_identifier) (generic_type) (qualified_type) (pointer_type)
             (array_type) (slice_type) (map_type) (channel_type)
             (function_type) (parenthesized_type) (negated_type)])
    (type_alias name: (type_identifier) @name)
  ] @definition.type)
  @_group (#match? @_group "^type\\s*\\("))

; Supertypes, on the same nodes as the types above: a struct's embedded
; fields (`Bar`, `*pkg.Baz`: `Baz`), an interface's embedded interfaces
; (`io.Reader`: `Reader`; not a type set's union `int | float64`, `~int`
; or a predeclared non-interface type).
((type_declaration
  (type_spec
    type: (struct_type
      (field_declaration_list
        (field_declaration !name type: [(type_identifier) (qualified_type) (generic_type)] @supertype))))) @definition.struct
  (#not-match? @definition.struct "^type\\s*\\("))
((type_declaration
  (type_spec
    type: (interface_type
      ((type_elem [(type_identifier) (qualified_type) (generic_type)] @supertype) @_elem
        (#not-match? @_elem "\\|")
        (#not-any-of? @_elem "bool" "byte" "complex64" "complex128" "float32" "float64" "int" "int8" "int16"
          "int32" "int64" "rune" "string" "uint" "uint8" "uint16" "uint32" "uint64" "uintptr"))))) @definition.interface
  (#not-match? @definition.interface "^type\\s*\\("))
((type_declaration
  (type_spec
    type: (struct_type
      (field_declaration_list
        (field_declaration !name type: [(type_identifier) (qualified_type) (generic_type)] @supertype)))) @definition.struct)
  @_group (#match? @_group "^type\\s*\\("))
((type_declaration
  (type_spec
    type: (interface_type
      ((type_elem [(type_identifier) (qualified_type) (generic_type)] @supertype) @_elem
        (#not-match? @_elem "\\|")
        (#not-any-of? @_elem "bool" "byte" "complex64" "complex128" "float32" "float64" "int" "int8" "int16"
          "int32" "int64" "rune" "string" "uint" "uint8" "uint16" "uint32" "uint64" "uintptr")))) @definition.interface)
  @_group (#match? @_group "^type\\s*\\("))

; Package-level constants and variables (direct children of the file, so
; never locals): a single declaration is the whole `const X = ...`; in a
; group each spec is its own element. The blank identifier `_` (`var _ I =
; T{}` interface checks, `_ = iota`) names nothing and is left out.
(source_file
  (const_declaration
    (const_spec name: (identifier) @name value: (_)? @body)) @definition.constant
  (#not-match? @definition.constant "^const\\s*\\(")
  (#not-eq? @name "_"))
(source_file
  (const_declaration
    (const_spec name: (identifier) @name value: (_)? @body) @definition.constant)
  @_group (#match? @_group "^const\\s*\\(")
  (#not-eq? @name "_"))
(source_file
  (var_declaration
    (var_spec name: (identifier) @name value: (_)? @body)) @definition.variable
  (#not-eq? @name "_"))
(source_file
  (var_declaration
    (var_spec_list
      (var_spec name: (identifier) @name value: (_)? @body) @definition.variable))
  (#not-eq? @name "_"))

; The second and later names of a multi-name spec (`const a, b = 1, 2`,
; `var x, y T`): each its bare identifier. Locals among them are dropped by
; the engine (their innermost container is a function). (Only the first
; identifier of a const_spec carries the `name:` field in this grammar.)
((const_spec (identifier) (identifier) @name @definition.constant)
  (#not-eq? @name "_"))
((var_spec name: (identifier) name: (identifier) @name @definition.variable)
  (#not-eq? @name "_"))

; Struct fields, owned by their struct: named fields (the first name of
; `a, b int` is the whole declaration, the others their identifier) and
; embedded fields, named after their type (`*pkg.Type[T]` is `Type`).
; Fields of an anonymous struct in a function are locals (dropped).
((field_declaration name: (field_identifier) @name) @definition.field
  (#not-eq? @name "_"))
((field_declaration
  name: (field_identifier) name: (field_identifier) @name @definition.field)
  (#not-eq? @name "_"))
; An anonymous struct type owns its fields under the name of what it types:
; a package variable (`var X86 struct { HasAES bool }`, also a slice, array
; or map of structs, or a composite literal of one: `var tests = []struct{
; ... }{...}`) or a field (`Geometry struct { Type string }` is owned by
; `Outer.Geometry`). The variable or field itself stays an element.
(var_spec
  . name: (identifier) @name
  type: [
    (struct_type)
    (slice_type element: (struct_type))
    (array_type element: (struct_type))
    (map_type value: (struct_type))
    (pointer_type (struct_type))
  ]) @scope
(var_spec
  . name: (identifier) @name
  !type
  value: (expression_list
    .
    (composite_literal
      type: [
        (struct_type)
        (slice_type element: (struct_type))
        (array_type element: (struct_type))
        (map_type value: (struct_type))
      ]))) @scope
(field_declaration
  . name: (field_identifier) @name
  type: [
    (struct_type)
    (slice_type element: (struct_type))
    (array_type element: (struct_type))
    (map_type value: (struct_type))
    (pointer_type (struct_type))
  ]) @scope

(field_declaration
  !name
  type: [
    (type_identifier) @name
    (qualified_type name: (type_identifier) @name)
    (generic_type type: [
      (type_identifier) @name
      (qualified_type name: (type_identifier) @name)])
  ]) @definition.field

; References (the tags.scm `@reference.*` convention; the engine keeps one
; per name, kind and line, with the function or method around it as `in`):
; - calls by the called name: `f(…)`, `pkg.F(…)` and `w.sink.Write(…)` are
;   `f`, `F`, `Write`; composite literals (`Writer{…}`, `&pkg.T{…}`), Go's
;   constructors;
; - types: every type name (`pkg.Type` is `Type`) but the predeclared ones
;   (`string`, `int`, `error`, …: not worth an entry each);
; - imports: each import path (`encoding/json`).
(call_expression
  function: [(identifier) @name
             (selector_expression field: (field_identifier) @name)
             (parenthesized_expression (identifier) @name)
             (parenthesized_expression (selector_expression field: (field_identifier) @name))]) @reference.call
(composite_literal
  type: [(type_identifier) @name
         (qualified_type name: (type_identifier) @name)
         (generic_type type: [(type_identifier) @name (qualified_type name: (type_identifier) @name)])]) @reference.call
((type_identifier) @name @reference.type
  (#not-any-of? @name
    "any" "bool" "byte" "comparable" "complex64" "complex128" "error" "float32" "float64"
    "int" "int8" "int16" "int32" "int64" "rune" "string"
    "uint" "uint8" "uint16" "uint32" "uint64" "uintptr"))
(import_spec path: (interpreted_string_literal (interpreted_string_literal_content) @name)) @reference.import

; Reads of named values: every identifier read is a candidate; the engine
; keeps those that name a value (upper case, `kName`, or a constant the
; file defines) and are no other kind of use.
(identifier) @name @reference.read

; Defaults: a field set when it is zero or empty, `if c.AckWait <= 0 {
; c.AckWait = defaultAckWait }`, `if o.Gap == 0 { o.Gap = 12 }`, `if
; o.Name == "" { o.Name = "x" }`: the assignment is the field's default.
(if_statement
  condition: (binary_expression
    left: (selector_expression field: (field_identifier) @_checked)
    operator: ["==" "<=" "<"]
    right: [(int_literal) (float_literal) (interpreted_string_literal) (raw_string_literal) (nil)])
  consequence: (block (statement_list
    (assignment_statement
      left: (expression_list (selector_expression field: (field_identifier) @name))
      right: (expression_list (_))) @reference.default))
  (#eq? @_checked @name))
