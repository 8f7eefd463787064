//! Tree-sitter allocates every tree node, stack entry and subtree through C
//! `malloc`/`free`: about a tenth of the CPU of `scan ast` went to glibc's
//! allocator. The binary routes those calls to mimalloc, which is also its
//! global Rust allocator.

use std::ffi::c_void;

unsafe extern "C" fn ts_malloc(size: usize) -> *mut c_void {
    libmimalloc_sys::mi_malloc(size)
}

unsafe extern "C" fn ts_calloc(count: usize, size: usize) -> *mut c_void {
    libmimalloc_sys::mi_calloc(count, size)
}

unsafe extern "C" fn ts_realloc(ptr: *mut c_void, size: usize) -> *mut c_void {
    libmimalloc_sys::mi_realloc(ptr, size)
}

unsafe extern "C" fn ts_free(ptr: *mut c_void) {
    libmimalloc_sys::mi_free(ptr)
}

/// Make tree-sitter allocate through mimalloc. Call it once, first thing in
/// `main`, before any parser, tree or query exists: memory allocated before
/// the switch would be freed by the wrong allocator.
pub fn route_tree_sitter_to_mimalloc() {
    // SAFETY: called before any tree-sitter object is created (see above);
    // the four functions form one consistent allocator.
    unsafe { tree_sitter::set_allocator(Some(ts_malloc), Some(ts_calloc), Some(ts_realloc), Some(ts_free)) }
}
