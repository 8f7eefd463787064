; Ruby.
;
; Conventions:
; - Doc comments are the `#` lines (RDoc, YARD) and `=begin … =end` blocks
;   touching the definition; the comments at the top of the file (a magic
;   comment `# frozen_string_literal: true`, a licence) are the header.
; - Types: a `class` is a class, a `module` (a namespace and a mixin at
;   once) a class too; nested ones are owned by the class or module around
;   them (`class A::B` is `B`).
; - Supertypes: a class's superclass (`< Base`) and the modules a class or
;   module mixes in with `include`, `extend` or `prepend`, each by its own
;   name (`ActiveSupport::Concern` -> `Concern`).
; - Methods: `def` in a class or module (also `def self.f`, and in
;   `class << self`), `alias`/`alias_method`; a `def` at file level is a
;   function. Accessors (`attr_reader :a, :b`) are fields; constants
;   (`VERSION = "1.0"`) are constants. A signature is the definition's
;   first line.
; - References: method calls (`a.f`, `f(x)`, `A.new` is a call of `new` and
;   a use of the type `A`), constants used as a receiver or in a scope
;   (`A::B`: both), superclasses and mixins as types, and `require`,
;   `require_relative` and `load` as imports.

(program (comment) @header)
(comment) @doc

; Classes and modules. (No `@body`: a definition's signature is its first
; line, as comments may stand between the name and the body.)
(class name: [(constant) @name (scope_resolution name: (constant) @name)]) @definition.class
(module name: [(constant) @name (scope_resolution name: (constant) @name)]) @definition.class

; Supertypes: the superclass and the mixins.
(class superclass: (superclass [(constant) (scope_resolution)] @supertype)) @definition.class
((class
   body: (body_statement
     (call !receiver method: (identifier) @_mixin arguments: (argument_list [(constant) (scope_resolution)] @supertype)))) @definition.class
  (#any-of? @_mixin "include" "extend" "prepend"))
((module
   body: (body_statement
     (call !receiver method: (identifier) @_mixin arguments: (argument_list [(constant) (scope_resolution)] @supertype)))) @definition.class
  (#any-of? @_mixin "include" "extend" "prepend"))

; Methods: every `def` is a function; one in a class, a module or `class <<
; self` body is a method.
(method name: (_) @name) @definition.function
(singleton_method name: (_) @name) @definition.method
(class body: (body_statement (method name: (_) @name) @definition.method))
(module body: (body_statement (method name: (_) @name) @definition.method))
(singleton_class body: (body_statement (method name: (_) @name) @definition.method))
(alias name: (_) @name) @definition.method
((call !receiver method: (identifier) @_alias arguments: (argument_list . (simple_symbol) @name)) @definition.method
  (#eq? @_alias "alias_method"))

; Accessors: fields, the first the whole call (`attr_reader :a, :b` is
; `a`), further ones their symbol.
((call
   !receiver
   method: (identifier) @_attr
   arguments: (argument_list . (simple_symbol) @name)) @definition.field
  (#any-of? @_attr "attr_reader" "attr_writer" "attr_accessor" "attr"))
((call
   !receiver
   method: (identifier) @_attr
   arguments: (argument_list (_) (simple_symbol) @name @definition.field))
  (#any-of? @_attr "attr_reader" "attr_writer" "attr_accessor" "attr"))

; Constants.
(assignment left: (constant) @name) @definition.constant

; References.
((call method: (identifier) @name) @reference.call
  (#not-any-of? @name "require" "require_relative" "load" "include" "extend" "prepend" "attr_reader"
    "attr_writer" "attr_accessor" "attr" "alias_method" "private" "protected" "public" "module_function"))
(call receiver: [(constant) @name (scope_resolution name: (constant) @name)]) @reference.type
(scope_resolution scope: (constant) @name) @reference.type
(scope_resolution name: (constant) @name) @reference.type
(superclass [(constant) @name (scope_resolution name: (constant) @name)]) @reference.type
((call
   !receiver
   method: (identifier) @_mixin
   arguments: (argument_list [(constant) @name (scope_resolution name: (constant) @name)])) @reference.type
  (#any-of? @_mixin "include" "extend" "prepend"))
((call
   !receiver
   method: (identifier) @_require
   arguments: (argument_list . (string (string_content) @import @name))) @reference.import
  (#any-of? @_require "require" "require_relative" "load"))

; Reads of named values: every constant read is a candidate (`MAX_SIZE`,
; `Config::TIMEOUT`); the engine keeps those that name a value (upper case,
; or a constant the file defines) and are no other kind of use.
(constant) @name @reference.read
