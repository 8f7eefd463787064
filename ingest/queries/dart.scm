; Dart.
;
; Conventions:
; - Doc comments are `///` lines and `/** */` blocks, both parsed as
;   `documentation_comment`. Annotations are children of the declaration, so a
;   doc comment directly precedes its declaration (class members are wrapped
;   in a `member_declaration`, which the doc-comment walk goes through).
; - Classes, mixins and extension types are classes, enums are enums; an
;   `extension … on T` block is a scope that owns its members under the
;   extended type's name. `typedef`s are types.
; - Supertypes: `extends`, `with` and `implements` of classes and enums, `on`
;   and `implements` of mixins, `implements` of extension types.
; - Members of classes, mixins, enums and extensions are methods: methods,
;   getters, setters, operators (named by their operator) and constructors
;   (`K(…)` is `K`, `K.named(…)` is `named`), with a body or declared only.
;   Top-level functions, getters and setters are functions, and so are local
;   functions, owned by the function or method around them. `async`/`async*`/
;   `sync*` stay in the signature: the cut is at the block or expression
;   inside `function_body` (of two `@body` captures in a match the last wins).
; - Values: top-level `const` declarations are constants, other top-level
;   ones (`final`, `var`, `late`, typed) variables; class-level ones are
;   fields, `static const` ones constants; enum values are constants; an
;   extension type's representation is a field. Each declared name is an
;   element: the first with the whole declaration, further ones (`int a, b;`)
;   with their declarator alone. Locals (`local_variable_declaration`) are
;   never captured, so no `@local.scope` is needed.

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
(type_alias (type_identifier) @name) @definition.type
(type_alias (type_identifier) @name "=" . (_) @body) @definition.type

; Supertypes, each type's bare name (`p.Base<T>` -> `Base`): a class's
; `extends`, `with` and `implements` (also of a mixin application
; `class X = Y with Z implements W;`), a mixin's `on` and `implements`, an
; enum's `with` and `implements`, an extension type's `implements`. (An
; extension's `on` type is the type it extends, no supertype.)
(class_declaration superclass: (superclass type: (type) @supertype)) @definition.class
(class_declaration superclass: (superclass (mixins (type) @supertype))) @definition.class
(class_declaration interfaces: (interfaces (type) @supertype)) @definition.class
(class_declaration
  (mixin_application_class
    (mixin_application
      [(type) @supertype
       (mixins (type) @supertype)
       (interfaces (type) @supertype)]))) @definition.class
(mixin_declaration (type) @supertype) @definition.class
(mixin_declaration interfaces: (interfaces (type) @supertype)) @definition.class
(enum_declaration (mixins (type) @supertype)) @definition.enum
(enum_declaration (interfaces (type) @supertype)) @definition.enum
(extension_type_declaration interfaces: (interfaces (type) @supertype)) @definition.class

; Extensions own their members, under the extended type's bare name
; (`extension X<T> on List<T>` owns them as `List`).
(extension_declaration class: (type . (type_identifier) @name)) @scope

; Top-level functions, getters and setters.
(source_file
  (function_declaration
    signature: (_ name: (identifier) @name)
    body: (function_body (_)? @body) @body) @definition.function)
(source_file
  [(getter_declaration signature: (_ name: (identifier) @name) body: (function_body (_)? @body) @body)
   (setter_declaration signature: (_ name: (identifier) @name) body: (function_body (_)? @body) @body)] @definition.function)
(source_file
  [(external_function_declaration signature: (_ name: (identifier) @name))
   (external_getter_declaration (_ name: (identifier) @name))
   (external_setter_declaration (_ name: (identifier) @name))] @definition.function)

; Local functions, at any depth in a function, method or closure.
(local_function_declaration
  (function_signature name: (identifier) @name)
  (function_body (_)? @body) @body) @definition.function

; Members with a body: methods, getters, setters, factories and operators.
; The engine strips `<` and `>` around names (as around `<stdio.h>`), so the
; comparison and shift operators stay unnamed rather than misnamed.
(method_declaration
  signature: (method_signature
    [(function_signature name: (identifier) @name)
     (getter_signature name: (identifier) @name)
     (setter_signature name: (identifier) @name)
     (constructor_signature name: (identifier) @name . parameters: (_))
     (factory_constructor_signature name: (identifier) @name . parameters: (_))])
  body: (function_body (_)? @body) @body) @definition.method
((method_declaration
   signature: (method_signature (operator_signature operator: _ @name))
   body: (function_body (_)? @body) @body) @definition.method
  (#not-match? @name "^[<>]|[<>]$"))
((method_declaration
   signature: (method_signature (operator_signature operator: _ @_op))
   body: (function_body (_)? @body) @body) @definition.method
  (#match? @_op "^[<>]|[<>]$"))

; Members declared only (abstract, external, constructors with an initializer
; list or a redirection, redirecting factories), cut at `:` / `=`.
(member_declaration
  (declaration
    [(function_signature name: (identifier) @name)
     (getter_signature name: (identifier) @name)
     (setter_signature name: (identifier) @name)
     (constructor_signature name: (identifier) @name . parameters: (_))
     (constant_constructor_signature name: (identifier) @name . parameters: (_))
     (factory_constructor_signature name: (identifier) @name . parameters: (_))
     (redirecting_factory_constructor_signature name: (identifier) @name . parameters: (_))]
    [(initializers) (redirection)]? @body) @definition.method)
((member_declaration
   (declaration (operator_signature operator: _ @name)) @definition.method)
  (#not-match? @name "^[<>]|[<>]$"))
((member_declaration
   (declaration (operator_signature operator: _ @_op)) @definition.method)
  (#match? @_op "^[<>]|[<>]$"))

; Top-level constants (`const`) and variables (`final`, `late`, `var`, typed).
(source_file
  (top_level_variable_declaration
    modifier: "const"
    (static_final_declaration_list
      . (static_final_declaration name: (identifier) @name value: (_) @body))) @definition.constant)
(source_file
  (top_level_variable_declaration
    modifier: "const"
    (static_final_declaration_list
      "," . (static_final_declaration name: (identifier) @name value: (_) @body) @definition.constant)))
(source_file
  [(top_level_variable_declaration
     !modifier
     [(static_final_declaration_list
        . (static_final_declaration name: (identifier) @name value: (_) @body))
      (initialized_identifier_list
        . (initialized_identifier name: (identifier) @name value: (_)? @body))])
   (top_level_variable_declaration
     modifier: ["final" "late"]
     [(static_final_declaration_list
        . (static_final_declaration name: (identifier) @name value: (_) @body))
      (initialized_identifier_list
        . (initialized_identifier name: (identifier) @name value: (_)? @body))])] @definition.variable)
(source_file
  [(top_level_variable_declaration
     !modifier
     [(static_final_declaration_list
        "," . (static_final_declaration name: (identifier) @name value: (_) @body) @definition.variable)
      (initialized_identifier_list
        "," . (initialized_identifier name: (identifier) @name value: (_)? @body) @definition.variable)])
   (top_level_variable_declaration
     modifier: ["final" "late"]
     [(static_final_declaration_list
        "," . (static_final_declaration name: (identifier) @name value: (_) @body) @definition.variable)
      (initialized_identifier_list
        "," . (initialized_identifier name: (identifier) @name value: (_)? @body) @definition.variable)])])

; Fields of classes, mixins, enums and extensions; `static const` ones are
; constants.
((member_declaration
   (declaration
     (static_final_declaration_list
       . (static_final_declaration name: (identifier) @name value: (_) @body))) @definition.constant)
  (#match? @definition.constant "^(static\\s+)?const\\s"))
((member_declaration
   (declaration
     (static_final_declaration_list
       "," . (static_final_declaration name: (identifier) @name value: (_) @body) @definition.constant)) @_decl)
  (#match? @_decl "^(static\\s+)?const\\s"))
((member_declaration
   (declaration
     [(static_final_declaration_list
        . (static_final_declaration name: (identifier) @name value: (_) @body))
      (initialized_identifier_list
        . (initialized_identifier name: (identifier) @name value: (_)? @body))]) @definition.field)
  (#not-match? @definition.field "^(static\\s+)?const\\s"))
((member_declaration
   (declaration
     [(static_final_declaration_list
        "," . (static_final_declaration name: (identifier) @name value: (_) @body) @definition.field)
      (initialized_identifier_list
        "," . (initialized_identifier name: (identifier) @name value: (_)? @body) @definition.field)]) @_decl)
  (#not-match? @_decl "^(static\\s+)?const\\s"))

; Enum values are constants of their enum; an extension type's representation
; (`extension type Id(int value)`) is its field.
(enum_entry name: (identifier) @name) @definition.constant
(extension_type_declaration
  representation: (extension_type_representation name: (identifier) @name) @definition.field)

; References (the tags.scm `@reference.*` convention; the engine keeps one
; per name, kind and line, with the function, method or class around it as
; `in`):
; - calls by the called name: `f(…)`, `a.b.f(…)`, `a?.f(…)`, cascades
;   (`..add(1)`) are `f`, `add`; constructors (`Result(data)` is a call,
;   `new Foo()`, `const Foo()`, `List<int>.filled(…)`: `List` and `filled`);
; - types: every type name (annotations, generic arguments, `extends`,
;   `implements`, `with`; also a type parameter's own name, `T` of
;   `<T extends R>`), annotations (`@override`), and the class of a call on
;   a capitalized receiver (`DateTime.now()`; not all-caps constants);
; - imports: each URI (`dart:convert`, `package:a/b.dart`).
(call_expression
  function: [(identifier) @name
             (member_expression property: (identifier) @name)
             (null_aware_member_expression property: (identifier) @name)
             (static_member_shorthand (identifier) @name)]) @reference.call
((call_expression
   function: (member_expression object: (identifier) @name)) @reference.type
  (#match? @name "^[A-Z][A-Za-z0-9_$]*[a-z]"))
(cascade_call_expression property: (identifier) @name) @reference.call
(new_expression type: (type . (type_identifier) @name)) @reference.call
(const_object_expression type: (type . (type_identifier) @name)) @reference.call
(constructor_invocation type: (type_identifier) @name) @reference.call
(constructor_invocation constructor: (identifier) @name) @reference.call
(type_identifier) @name @reference.type
(annotation name: (identifier) @name) @reference.type
(import_specification uri: (configurable_uri (uri (string_literal) @name))) @reference.import
(library_export uri: (configurable_uri (uri (string_literal) @name))) @reference.import

; Reads of named values: every identifier read is a candidate; the engine
; keeps those that name a value (upper case, `kName`, or a constant the
; file defines) and are no other kind of use.
(identifier) @name @reference.read
