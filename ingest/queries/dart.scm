; Dart. Doc comments are `///` lines and `/** */` blocks, both parsed as
; `documentation_comment`. Annotations are children of the declaration, so a
; doc comment directly precedes its declaration (class members are wrapped in a
; `member_declaration`, which the doc-comment walk goes through).
; Mixins and extension types are classes; an `extension … on T` block owns its
; methods under the extended type's name. `async`/`async*`/`sync*` stay in the
; signature: the cut is at the block or expression inside `function_body`.

; Header: the plain comments at the top of the file.
(source_file (comment) @header)

(documentation_comment) @doc
(annotation) @attribute

; Imports and re-exports: the URI (`dart:async`, `package:a/b.dart`, `src/x.dart`).
(import_specification uri: (_) @import)
(library_export uri: (_) @import)

; Types.
(class_declaration name: (identifier) @name body: (class_body)? @body) @definition.class
(class_declaration
  (mixin_application_class (identifier) @name (mixin_application) @body)) @definition.class
(mixin_declaration name: (identifier) @name body: (class_body)? @body) @definition.class
(extension_type_declaration
  name: (extension_type_name (identifier) @name)
  body: (class_body)? @body) @definition.class
(enum_declaration name: (identifier) @name body: (enum_body)? @body) @definition.enum

; Extensions own their methods.
(extension_declaration class: (type) @name) @scope

; Top-level functions, getters and setters. The body is the block or
; expression inside `function_body` when it has a named one, else the
; `function_body` itself (of two `@body` captures in a match the last wins).
(source_file
  (function_declaration
    signature: (_ name: (identifier) @name)
    body: (function_body (_)? @body) @body) @definition.function)
(source_file
  [(getter_declaration signature: (_ name: (identifier) @name) body: (function_body (_)? @body) @body)
   (setter_declaration signature: (_ name: (identifier) @name) body: (function_body (_)? @body) @body)] @definition.function)
(source_file
  [(external_function_declaration) (external_getter_declaration) (external_setter_declaration)] @definition.function)

; Methods, constructors, getters, setters and operators of classes, mixins,
; enums and extensions: with a body, or declared only (abstract, external,
; constructors with an initializer list or redirection).
(member_declaration
  (method_declaration body: (function_body (_)? @body) @body) @definition.method)
(member_declaration
  (declaration
    [(function_signature) (getter_signature) (setter_signature) (operator_signature)
     (constructor_signature) (constant_constructor_signature)
     (factory_constructor_signature) (redirecting_factory_constructor_signature)]
    [(initializers) (redirection)]? @body) @definition.method)

; Top-level variables (`const`, `final`, `var`, `late`), the first declared name
; with the whole declaration, further ones with their declarator alone.
(source_file
  (top_level_variable_declaration
    (static_final_declaration_list
      . (static_final_declaration name: (identifier) @name value: (_) @body))) @definition.variable)
(source_file
  (top_level_variable_declaration
    (initialized_identifier_list
      . (initialized_identifier name: (identifier) @name value: (_)? @body))) @definition.variable)
(source_file
  (top_level_variable_declaration
    (static_final_declaration_list
      "," . (static_final_declaration name: (identifier) @name value: (_) @body) @definition.variable)))
(source_file
  (top_level_variable_declaration
    (initialized_identifier_list
      "," . (initialized_identifier name: (identifier) @name value: (_)? @body) @definition.variable)))

; Class-level constants and static fields.
(member_declaration
  (declaration
    "static"
    (static_final_declaration_list
      . (static_final_declaration name: (identifier) @name value: (_) @body))) @definition.variable)
(member_declaration
  (declaration
    "static"
    (initialized_identifier_list
      . (initialized_identifier name: (identifier) @name value: (_)? @body))) @definition.variable)
(member_declaration
  (declaration
    "static"
    (static_final_declaration_list
      "," . (static_final_declaration name: (identifier) @name value: (_) @body) @definition.variable)))
(member_declaration
  (declaration
    "static"
    (initialized_identifier_list
      "," . (initialized_identifier name: (identifier) @name value: (_)? @body) @definition.variable)))

; Type aliases, like Rust's `type` items.
(source_file (type_alias (type_identifier) @name "=" . (_) @body) @definition.variable)
