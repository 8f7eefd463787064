//! Print the extracted AST of one file as JSON: `cargo run --example ast_dump -- FILE`.
fn main() {
    let path = std::path::PathBuf::from(std::env::args().nth(1).expect("usage: ast_dump FILE"));
    let lang = vibe_ingest::extract::for_path(&path).expect("unsupported file type");
    let code = std::fs::read_to_string(&path).expect("readable UTF-8 file");
    match vibe_ingest::extract::extract(lang, &code) {
        Ok(ast) => println!("{}", serde_json::to_string_pretty(&ast).unwrap()),
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    }
}
