; Zig.
;
; Conventions:
; - Doc comments are the `///` lines touching the definition; the `//!`
;   lines at the top of the file (the module's doc) are the header.
; - Types: `const X = struct { … }` (also `extern`/`packed`, `union`,
;   `opaque`) is a struct, `const X = enum { … }` and an error set an enum;
;   the containers nest, so the engine owns their members by them.
; - Functions: `fn` is a function, one in a container a method (also
;   `extern fn` without a body). `test "…" { }` blocks are no definitions.
; - Values: a file-level `const` is a constant, `var` a variable (`const
;   std = @import("std")` too); a container's fields (`radius: f64`) are
;   fields, an enum's the enum's constants, its `const` declarations
;   constants. Those in a function are locals (dropped by the engine).
; - References: calls (`f()`, `a.f()`: `f`), types (a parameter's,
;   field's, variable's or return type named by an identifier, `Circle{ … }`
;   initialisers, and upper-case members `std.mem.Allocator`) and
;   `@import("std")` as an import.

(source_file (comment) @header)
((comment) @doc (#match? @doc "^///"))

; Imports.
((builtin_function (builtin_identifier) @_import (arguments . (string) @import))
  (#eq? @_import "@import"))

; Values and the types they hold, at any depth (the engine drops locals).
((variable_declaration . (identifier) @name) @definition.constant
  (#match? @definition.constant "^(pub\\s+)?(export\\s+|extern\\s+(\"[^\"]*\"\\s+)?)?(threadlocal\\s+)?const\\s"))
((variable_declaration . (identifier) @name) @definition.variable
  (#not-match? @definition.variable "^(pub\\s+)?(export\\s+|extern\\s+(\"[^\"]*\"\\s+)?)?(threadlocal\\s+)?const\\s"))
; (`extern "c" const x: T;`: the library's name comes first.)
((variable_declaration . (string) . (identifier) @name) @definition.constant
  (#match? @definition.constant "^(pub\\s+)?extern\\s+\"[^\"]*\"\\s+const\\s"))
((variable_declaration . (string) . (identifier) @name) @definition.variable
  (#not-match? @definition.variable "^(pub\\s+)?extern\\s+\"[^\"]*\"\\s+const\\s"))
(variable_declaration . (identifier) @name [(struct_declaration) (union_declaration) (opaque_declaration)] @body) @definition.struct
(variable_declaration . (identifier) @name [(enum_declaration) (error_set_declaration)] @body) @definition.enum

; Fields: a struct's or a union's; an enum's are its constants, as are
; an error set's names.
(struct_declaration (container_field name: (identifier) @name) @definition.field)
(union_declaration (container_field name: (identifier) @name) @definition.field)
(enum_declaration (container_field name: (identifier) @name) @definition.constant)
(error_set_declaration (identifier) @name @definition.constant)

; Functions and methods.
(function_declaration name: (identifier) @name body: (block)? @body) @definition.function
(struct_declaration (function_declaration name: (identifier) @name body: (block)? @body) @definition.method)
(union_declaration (function_declaration name: (identifier) @name body: (block)? @body) @definition.method)
(enum_declaration (function_declaration name: (identifier) @name body: (block)? @body) @definition.method)
(opaque_declaration (function_declaration name: (identifier) @name body: (block)? @body) @definition.method)

; Test and comptime blocks: their values are locals.
(test_declaration) @local.scope
(comptime_declaration) @local.scope

; References.
(call_expression function: [(identifier) @name (field_expression member: (identifier) @name)]) @reference.call
; (Each parent named: a wildcard root would leave the whole query to the cursor.)
(parameter type: [(identifier) @name
                ([(slice_type) (pointer_type) (nullable_type) (array_type)] (identifier) @name)]) @reference.type
(function_declaration type: [(identifier) @name
                ([(slice_type) (pointer_type) (nullable_type) (array_type)] (identifier) @name)]) @reference.type
(variable_declaration type: [(identifier) @name
                ([(slice_type) (pointer_type) (nullable_type) (array_type)] (identifier) @name)]) @reference.type
(container_field type: [(identifier) @name
                ([(slice_type) (pointer_type) (nullable_type) (array_type)] (identifier) @name)]) @reference.type
(error_union_type ok: (identifier) @name) @reference.type
(struct_initializer . (identifier) @name) @reference.type
((field_expression member: (identifier) @name) @reference.type
  (#match? @name "^[A-Z][A-Za-z0-9_]*[a-z]"))
((builtin_function
   (builtin_identifier) @_import
   (arguments . (string (string_content) @name))) @reference.import
  (#eq? @_import "@import"))

; Reads of named values: every identifier read is a candidate; the engine
; keeps those that name a value (upper case, `kName`, or a constant the
; file defines) and are no other kind of use.
(identifier) @name @reference.read
