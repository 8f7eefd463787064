; Scala (2 and 3).
;
; Conventions:
; - Doc comments are Scaladoc `/** */` blocks (and `///` lines) touching
;   the definition; the comments at the top of the file (a licence) are
;   the header.
; - Types: `class` and `case class` are classes, `object` (and `case
;   object`, `package object`) a class too, `trait` a trait, `enum` an enum
;   whose `case`s are constants; `type X = …` a type. Every one at any depth:
;   the engine owns nested ones by the type around them.
; - Supertypes: the types of `extends … with …` (`Ordered[Polygon]` is
;   `Ordered`), of classes, objects, traits and enums.
; - Functions: `def` is a function; one in a class, object, trait or enum
;   body (also abstract, `def area: Double`) is a method. A `def` of an
;   `extension (c: Circle)` is a method too. A `def` inside another is owned
;   by it.
; - Values: `val`, `var` and `given` at file level are variables, in a
;   type's body fields (abstract `val x: T` too); a `final val` is a
;   constant. Those in a `def` or a block are locals (dropped by the engine).
;   A `package a.b { … }` block names its contents' owners.
; - References: calls (`f(x)`, `a.f(x)`, `new A`: `A` a type), types in
;   any type position, `extends`/`with` types, and imports: each name an
;   `import` brings in (`import a.b.C` is `C`; `import a.b.{C, D}` is `C`
;   and `D`); the import itself is its path (`a.b.C`, `a.b`).

(compilation_unit [(block_comment) (comment)] @header)
((block_comment) @doc (#match? @doc "^/\\*\\*"))
((comment) @doc (#match? @doc "^///"))
(annotation) @attribute

; Imports: the dotted path (the selectors left out).
(import_declaration ((identifier) @import . "."?)+)

; A `package a.b { … }` block.
(package_clause name: (package_identifier (identifier) @name .) body: (_) @namespace)

; Types.
(class_definition name: (identifier) @name body: (_)? @body) @definition.class
(object_definition name: (identifier) @name body: (_)? @body) @definition.class
(package_object name: (identifier) @name body: (_)? @body) @definition.class
(trait_definition name: (identifier) @name body: (_)? @body) @definition.trait
(enum_definition name: (identifier) @name body: (_) @body) @definition.enum
(type_definition name: (type_identifier) @name) @definition.type
(enum_case_definitions [(simple_enum_case name: (identifier) @name) (full_enum_case name: (identifier) @name)] @definition.constant)

; Supertypes: `extends A with B` (also `extends A, B` in Scala 3). (Any named
; child: the grammar gives `with` the field `type` too, and a field step
; then misses the types after it; arguments, `(x)`, name no type.)
(class_definition extend: (extends_clause (_) @supertype)) @definition.class
(object_definition extend: (extends_clause (_) @supertype)) @definition.class
(trait_definition extend: (extends_clause (_) @supertype)) @definition.trait
(enum_definition extend: (extends_clause (_) @supertype)) @definition.enum

; Functions and methods.
(function_definition name: (_) @name body: (_) @body) @definition.function
(function_declaration name: (_) @name) @definition.function
(template_body (function_definition name: (_) @name body: (_) @body) @definition.method)
(template_body (function_declaration name: (_) @name) @definition.method)
(enum_body (function_definition name: (_) @name body: (_) @body) @definition.method)
(extension_definition body: (function_definition name: (_) @name body: (_) @body) @definition.method)
(extension_definition body: (template_body (function_definition name: (_) @name body: (_) @body) @definition.method))

; Values: the first name of a `val`/`var` (`val a, b = 1` is `a`), a
; `final val` a constant.
((val_definition pattern: (identifier) @name value: (_) @body) @definition.variable
  (#not-match? @definition.variable "^[^=]*\\bfinal\\s+(lazy\\s+)?val\\s"))
(var_definition pattern: (identifier) @name value: (_)? @body) @definition.variable
(val_declaration name: (identifier) @name) @definition.field
(var_declaration name: (identifier) @name) @definition.field
(given_definition name: (identifier) @name body: (_)? @body) @definition.variable
((val_definition pattern: (identifier) @name value: (_) @body) @definition.constant
  (#match? @definition.constant "^[^=]*\\bfinal\\s+(lazy\\s+)?val\\s"))

; References.
(call_expression function: [(identifier) @name (field_expression field: (identifier) @name)]) @reference.call
(call_expression function: (generic_function function: [(identifier) @name (field_expression field: (identifier) @name)])) @reference.call
(infix_expression operator: (identifier) @name) @reference.call
(instance_expression [(type_identifier) @name (generic_type type: (type_identifier) @name)
                      (stable_type_identifier (type_identifier) @name .)]) @reference.type
(type_identifier) @name @reference.type
(stable_type_identifier (type_identifier) @name .) @reference.type
((import_declaration path: (identifier) @name .) @reference.import)
(import_declaration (namespace_selectors [(identifier) @name (arrow_renamed_identifier name: (identifier) @name)]) @reference.import)

; Reads of named values: every identifier read is a candidate; the engine
; keeps those that name a value (upper case, `kName`, or a constant the
; file defines) and are no other kind of use.
(identifier) @name @reference.read
