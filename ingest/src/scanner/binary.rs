//! Binary detection: by extension, by file name and by content.

use std::path::Path;

/// How many leading bytes are inspected for a NUL byte.
pub const SNIFF_LEN: usize = 8 * 1024;

/// Extensions (lower case, without the dot) of files that are always binary.
pub const BINARY_EXTENSIONS: &[&str] = &[
    // images
    "png",
    "jpg",
    "jpeg",
    "gif",
    "bmp",
    "ico",
    "icns",
    "tif",
    "tiff",
    "webp",
    "psd",
    "heic",
    "avif",
    "xcf",
    // documents
    "pdf",
    "doc",
    "docx",
    "xls",
    "xlsx",
    "ppt",
    "pptx",
    "odt",
    "ods",
    "odp",
    "epub",
    // archives and packages
    "zip",
    "gz",
    "tgz",
    "bz2",
    "xz",
    "7z",
    "rar",
    "tar",
    "zst",
    "lz4",
    "jar",
    "war",
    "ear",
    "aar",
    "apk",
    "ipa",
    "deb",
    "rpm",
    "dmg",
    "iso",
    "img",
    "whl",
    "egg",
    "nupkg",
    "crate",
    // compiled code and objects
    "class",
    "so",
    "dll",
    "exe",
    "o",
    "a",
    "lib",
    "obj",
    "dylib",
    "pdb",
    "wasm",
    "pyc",
    "pyo",
    "pyd",
    "rlib",
    "rmeta",
    "dex",
    "bin",
    "elf",
    "node",
    // media
    "mp3",
    "mp4",
    "wav",
    "ogg",
    "flac",
    "avi",
    "mov",
    "mkv",
    "webm",
    "m4a",
    "aac",
    "wma",
    "wmv",
    // fonts
    "ttf",
    "otf",
    "woff",
    "woff2",
    "eot",
    // data stores and model files
    "db",
    "sqlite",
    "sqlite3",
    "hprof",
    "npy",
    "npz",
    "pkl",
    "pt",
    "pth",
    "onnx",
    "h5",
    "parquet",
    "avro",
    "orc",
    "safetensors",
    "keystore",
    "jks",
    "p12",
    "der",
];

/// File names (case-sensitive) that are always binary.
pub const BINARY_NAMES: &[&str] = &[".DS_Store", "Thumbs.db", "ehthumbs.db", "desktop.ini.lnk"];

/// True if the file is binary by its name or extension alone.
pub fn is_binary_path(path: &Path) -> bool {
    if let Some(name) = path.file_name().and_then(|n| n.to_str()) {
        if BINARY_NAMES.contains(&name) {
            return true;
        }
    }
    match path.extension().and_then(|e| e.to_str()) {
        Some(ext) => {
            let ext = ext.to_ascii_lowercase();
            BINARY_EXTENSIONS.contains(&ext.as_str())
        }
        None => false,
    }
}

/// True if the content looks binary: a NUL byte in its first [`SNIFF_LEN`] bytes.
pub fn is_binary_content(head: &[u8]) -> bool {
    head[..head.len().min(SNIFF_LEN)].contains(&0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_by_extension_and_name() {
        assert!(is_binary_path(Path::new("a/b/logo.PNG")));
        assert!(is_binary_path(Path::new("lib/x.so")));
        assert!(is_binary_path(Path::new(".DS_Store")));
        assert!(!is_binary_path(Path::new("main.rs")));
        assert!(!is_binary_path(Path::new("Makefile")));
    }

    #[test]
    fn detects_nul_in_head_only() {
        assert!(is_binary_content(b"\x89PNG\r\n\x1a\n\0\0\0"));
        assert!(!is_binary_content(b"plain text\n"));
        let mut late = vec![b'a'; SNIFF_LEN];
        late.push(0);
        assert!(!is_binary_content(&late));
    }
}
