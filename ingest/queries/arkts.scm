; ArkTS (HarmonyOS). The grammar is a fork of TypeScript's, so this is
; typescript.scm (keep them in step) plus ArkTS's own elements: `struct`
; (ArkUI components) -> structs, their methods -> functions with owner,
; `@interface` annotation declarations -> interfaces, `import lazy`.
; Doc comments are JSDoc `/** */` blocks before an element; for an exported
; element they stand before the `export` statement (the engine climbs from
; the declaration to it). Decorators standing in a class or struct body
; (`@Builder`) or before `export` are skipped; those of a struct, class or
; function (`@Entry @Component struct`, `@Extend(Text) function`) are part of
; that node in this grammar, so they show in its signature.
;
; Kinds: classes (also abstract) -> classes; interfaces and type aliases ->
; interfaces; enums -> enums; functions at file or namespace level, and
; arrow functions / function expressions assigned to the first declarator of a
; top-level `const`/`let`/`var` -> functions; methods, method signatures and
; arrow-function fields of classes, structs and interfaces -> functions with
; owner; other top-level `const`/`let`/`var` and static class fields ->
; variables (struct state fields such as `@State msg` are not extracted).

; Header: the comments at the very top of the file (the engine keeps the
; leading run only).
(program (comment) @header)

((comment) @doc (#match? @doc "^/\\*\\*"))
(decorator) @attribute

; Imports: the module of `import … from "m"`, `import "m"`,
; `import lazy … from "m"`, `import x = require("m")`, `export … from "m"`,
; `require("m")`, `import("m")`.
(import_statement source: (string) @import)
(lazy_import_statement source: (string) @import)
(import_require_clause source: (string) @import)
(export_statement source: (string) @import)
((call_expression
   function: (identifier) @_require
   arguments: (arguments . (string) @import))
 (#eq? @_require "require"))
(call_expression
  function: (import)
  arguments: (arguments . (string) @import))

; Namespaces and modules own the functions declared in them.
(internal_module name: (_) @name) @scope
(module name: [(identifier) (nested_identifier)] @name) @scope
(module name: (string (string_fragment) @name)) @scope
; A class expression assigned to a constant owns its methods.
(variable_declarator name: (identifier) @name value: (class)) @scope

; Functions at file level, exported, or in a namespace (never nested in a
; function body).
(program
  [(function_declaration name: (_) @name body: (_) @body)
   (generator_function_declaration name: (_) @name body: (_) @body)
   (function_signature name: (_) @name)] @definition.function)
(program
  (ambient_declaration
    (function_signature name: (_) @name) @definition.function))
(export_statement
  declaration: [(function_declaration name: (_) @name body: (_) @body)
                (generator_function_declaration name: (_) @name body: (_) @body)
                (function_signature name: (_) @name)] @definition.function)
(export_statement
  declaration: (ambient_declaration
    (function_signature name: (_) @name) @definition.function))
(internal_module
  body: (statement_block
    [(function_declaration name: (_) @name body: (_) @body)
     (generator_function_declaration name: (_) @name body: (_) @body)
     (function_signature name: (_) @name)] @definition.function))
(module
  body: (statement_block
    [(function_declaration name: (_) @name body: (_) @body)
     (generator_function_declaration name: (_) @name body: (_) @body)
     (function_signature name: (_) @name)] @definition.function))

; Arrow functions and function expressions assigned to a top-level constant
; (the first declarator of the declaration) are functions.
(program
  (_ . (variable_declarator
         name: (_) @name
         value: [(arrow_function body: (_) @body)
                 (function_expression body: (_) @body)
                 (generator_function body: (_) @body)])) @definition.function)
(export_statement
  declaration: (_ . (variable_declarator
                      name: (_) @name
                      value: [(arrow_function body: (_) @body)
                              (function_expression body: (_) @body)
                              (generator_function body: (_) @body)])) @definition.function)

; Classes, interfaces, type aliases, enums, structs, annotation declarations.
(class_declaration name: (_) @name body: (_) @body) @definition.class
(abstract_class_declaration name: (_) @name body: (_) @body) @definition.class
(interface_declaration name: (_) @name body: (_) @body) @definition.interface
(type_alias_declaration name: (_) @name value: (_) @body) @definition.interface
(enum_declaration name: (_) @name body: (_) @body) @definition.enum
(struct_declaration name: (_) @name body: (_) @body) @definition.struct
(annotation_declaration name: (_) @name body: (_) @body) @definition.interface

; Methods: class methods (constructors, accessors and overload signatures
; too), abstract methods, interface methods, arrow-function fields.
(class_body (method_definition name: (_) @name body: (_) @body) @definition.method)
(struct_body (method_definition name: (_) @name body: (_) @body) @definition.method)
(class_body (method_signature name: (_) @name) @definition.method)
(struct_body (method_signature name: (_) @name) @definition.method)
(class_body (abstract_method_signature name: (_) @name) @definition.method)
(interface_body (method_signature name: (_) @name) @definition.method)
(class_body
  (public_field_definition
    name: (_) @name
    value: [(arrow_function body: (_) @body)
            (function_expression body: (_) @body)]) @definition.method)
(struct_body
  (public_field_definition
    name: (_) @name
    value: [(arrow_function body: (_) @body)
            (function_expression body: (_) @body)]) @definition.method)

; Top-level variables: every `const`/`let`/`var` at file level (or exported
; from a namespace) whose first value is not a function, and the later
; declarators of a multi-declarator statement.
(program
  (_ . (variable_declarator
         name: (_) @name
         value: (_) @body)) @definition.variable)
(export_statement
  declaration: (_ . (variable_declarator
                      name: (_) @name
                      value: (_) @body)) @definition.variable)
(program
  (_ . (variable_declarator name: (_) @name !value)) @definition.variable)
(export_statement
  declaration: (_ . (variable_declarator name: (_) @name !value)) @definition.variable)
(program
  (ambient_declaration
    (_ . (variable_declarator name: (_) @name !value)) @definition.variable))
(program
  (_ (variable_declarator) . (variable_declarator name: (_) @name value: (_)? @body) @definition.variable))
(export_statement
  declaration: (_ (variable_declarator) . (variable_declarator name: (_) @name value: (_)? @body) @definition.variable))

; Static class fields (constants such as `static readonly MAX = 10`).
(class_body
  (public_field_definition
    "static"
    name: (_) @name
    value: (_) @body) @definition.variable)
(struct_body
  (public_field_definition
    "static"
    name: (_) @name
    value: (_) @body) @definition.variable)
(class_body
  (public_field_definition "static" name: (_) @name !value) @definition.variable)
(struct_body
  (public_field_definition "static" name: (_) @name !value) @definition.variable)
