; C++: C's query (`c.scm`: macros, functions and prototypes, structs,
; unions, enums, typedefs, fields, file-level variables, comments, includes,
; calls and type names), and what C++ adds.
; inherits: c
;
; Conventions:
; - Namespaces are scopes (`namespace a::b { … }` owns what it holds, named
;   in owner chains); a namespace itself is not an element.
; - Types: `class` -> a class, `struct` and `union` -> structs (as in C),
;   `enum` and `enum class` -> enums, `using A = B;` -> a type, a concept ->
;   an interface. A template's `template <…>` is skipped between its doc
;   comment and the declaration.
; - Supertypes: each base of a class or struct, its own name
;   (`public std::exception` -> `exception`, `Base<T>` -> `Base`).
; - Methods: functions defined or declared in a class body (constructors,
;   destructors `~T`, operators `operator==`, `= default` and pure virtual
;   ones too), and those defined outside it (`void Foo::bar() {…}`: owned by
;   `Foo`, the scope before the name).
; - Fields: each declarator of a class's data members (as C's fields, plus
;   references `T& r;`).

(template_parameter_list) @attribute

; Namespaces own their declarations.
(namespace_definition name: (_) @name body: (_)) @namespace

; Classes (and C++ structs with bases, or templated ones), at any depth. A
; specialization `class Foo<int> {…}` is named `Foo`.
(class_specifier
  name: [(type_identifier) @name (template_type name: (type_identifier) @name) (qualified_identifier name: (_) @name)]
  body: (field_declaration_list) @body) @definition.class
(struct_specifier
  name: [(template_type name: (type_identifier) @name) (qualified_identifier name: (_) @name)]
  body: (field_declaration_list) @body) @definition.struct
(enum_specifier
  name: [(template_type name: (type_identifier) @name) (qualified_identifier name: (_) @name)]
  body: (enumerator_list) @body) @definition.enum
(alias_declaration name: (type_identifier) @name) @definition.type
(concept_definition name: (identifier) @name) @definition.interface

; Supertypes: the bases of a class or struct.
(class_specifier
  (base_class_clause [(type_identifier) (qualified_identifier) (template_type)] @supertype)) @definition.class
(struct_specifier
  (base_class_clause [(type_identifier) (qualified_identifier) (template_type)] @supertype)) @definition.struct

; Methods defined in a class body (also templated ones): by name, a
; destructor, an operator; also a reference or pointer return. One
; without a body (`= default`, `= delete`) is its first line.
(field_declaration_list (function_definition
     declarator: [
       (function_declarator declarator: [(field_identifier) (identifier) (destructor_name) (operator_name)] @name)
       (pointer_declarator declarator: (function_declarator declarator: [(field_identifier) (operator_name)] @name))
       (reference_declarator (function_declarator declarator: [(field_identifier) (operator_name)] @name))
     ]
     body: (_)? @body) @definition.method)
(field_declaration_list (template_declaration (function_definition
       declarator: [
         (function_declarator declarator: [(field_identifier) (identifier) (destructor_name) (operator_name)] @name)
         (pointer_declarator declarator: (function_declarator declarator: [(field_identifier) (operator_name)] @name))
         (reference_declarator (function_declarator declarator: [(field_identifier) (operator_name)] @name))
       ]
       body: (_)? @body) @definition.method))
(function_definition declarator: (operator_cast) @name body: (_) @body) @definition.method

; Methods declared in a class body: `int size() const;`, `virtual void f() = 0;`,
; a constructor `Foo(int);`, a destructor `~Foo();`.
(field_declaration
  declarator: [
    (function_declarator declarator: [(field_identifier) (operator_name)] @name)
    (pointer_declarator declarator: (function_declarator declarator: [(field_identifier) (operator_name)] @name))
    (reference_declarator (function_declarator declarator: [(field_identifier) (operator_name)] @name))
  ]) @definition.method
(field_declaration_list
  (declaration
    declarator: (function_declarator declarator: [(identifier) (destructor_name) (operator_name)] @name)) @definition.method)
(field_declaration_list
  (template_declaration
    [(declaration
       declarator: (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name))
     (field_declaration
       declarator: (function_declarator declarator: [(field_identifier) (operator_name)] @name))] @definition.method))

; Methods defined outside their class: `R Foo::bar(…) {…}`, `Foo::~Foo()`,
; `a::Foo<T>::bar`: owned by the scope just before the name.
(function_definition
  declarator: [
    (function_declarator
      declarator: [
        (qualified_identifier scope: (_) @owner name: [(identifier) (destructor_name) (operator_name)] @name)
        (qualified_identifier name: (qualified_identifier scope: (_) @owner name: [(identifier) (destructor_name) (operator_name)] @name))
        (qualified_identifier name: (qualified_identifier name: (qualified_identifier scope: (_) @owner name: [(identifier) (destructor_name) (operator_name)] @name)))
      ])
    (pointer_declarator
      declarator: (function_declarator
        declarator: [
          (qualified_identifier scope: (_) @owner name: [(identifier) (operator_name)] @name)
          (qualified_identifier name: (qualified_identifier scope: (_) @owner name: [(identifier) (operator_name)] @name))
        ]))
    (reference_declarator
      (function_declarator
        declarator: [
          (qualified_identifier scope: (_) @owner name: [(identifier) (operator_name)] @name)
          (qualified_identifier name: (qualified_identifier scope: (_) @owner name: [(identifier) (operator_name)] @name))
        ]))
  ]
  body: (_) @body) @definition.method

; Functions returning a reference, and free operators.
(function_definition
  declarator: [
    (reference_declarator (function_declarator declarator: [(identifier) (operator_name)] @name))
    (function_declarator declarator: (operator_name) @name)
  ]
  body: (_) @body) @definition.function
(declaration
  declarator: [
    (reference_declarator (function_declarator declarator: [(identifier) (operator_name)] @name))
    (function_declarator declarator: (operator_name) @name)
  ]) @definition.function

; Static data members defined outside their class (`const int
; Table<T>::kSize[] = {…};`): fields owned by the scope before the name.
(declaration
  declarator: (init_declarator
    declarator: [
      (qualified_identifier scope: (_) @owner name: (identifier) @name)
      (array_declarator declarator: (qualified_identifier scope: (_) @owner name: (identifier) @name))
    ]
    value: (_) @body)) @definition.field

; Data members held by reference (`T& r;`).
(field_declaration declarator: (reference_declarator (field_identifier) @name)) @definition.field
(field_declaration declarator: (_) declarator: (reference_declarator (field_identifier) @name) @definition.field)

; References, beyond C's: calls of a qualified or templated function
; (`std::move(x)` is `move`, `make<T>()` is `make`), of a method on a
; pointer or object (`p->f<T>()`), constructions (`new Foo(…)` is `Foo`);
; each base class is a type reference (C's `type_identifier`); `using
; namespace std;` and `using std::string;` are imports.
(call_expression
  function: [
    (qualified_identifier name: [(identifier) @name (template_function name: (identifier) @name)])
    (qualified_identifier name: (qualified_identifier name: [(identifier) @name (template_function name: (identifier) @name)]))
    (qualified_identifier
      name: (qualified_identifier
        name: (qualified_identifier name: [(identifier) @name (template_function name: (identifier) @name)])))
    (template_function name: (identifier) @name)
    (field_expression field: (template_method name: (field_identifier) @name))
  ]) @reference.call
(new_expression type: [(type_identifier) @name (template_type name: (type_identifier) @name)
                       (qualified_identifier name: [(type_identifier) @name (template_type name: (type_identifier) @name)])]) @reference.call
(using_declaration [(identifier) (qualified_identifier)] @import @name) @reference.import
