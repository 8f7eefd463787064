//! Text that is not UTF-8. A file with a UTF-16 byte-order mark is UTF-16,
//! whatever its NUL bytes; a file without a BOM that is not valid UTF-8 is
//! in a legacy encoding (Windows-1251, KOI8-R, GBK, Shift_JIS, Latin-1, ...)
//! that Mozilla's detector guesses, as Firefox does, and `encoding_rs`
//! decodes. When the guess rests on little (a short file, a comment of a
//! few accented letters), a configured default encoding that decodes the
//! file cleanly wins.

use std::borrow::Cow;

use chardetng::{EncodingDetector, Iso2022JpDetection, Utf8Detection};
use encoding_rs::{Encoding, UTF_16BE, UTF_16LE};

/// Bytes above ASCII under which a guess rests on too little to beat a
/// configured default.
const UNSURE_BELOW: usize = 64;

/// A file's text, and the encoding it was decoded from when not UTF-8.
pub struct Decoded<'a> {
    pub text: Cow<'a, str>,
    /// The WHATWG name, lower case (`windows-1251`, `utf-16le`); `None` for UTF-8.
    pub encoding: Option<&'static str>,
}

/// Whether `bytes` start with a UTF-16 byte-order mark (their NULs are text).
pub fn utf16_bom(bytes: &[u8]) -> bool {
    Encoding::for_bom(bytes).is_some_and(|(e, _)| e == UTF_16LE || e == UTF_16BE)
}

/// The text of `bytes`: UTF-8 as is; after a UTF-16 BOM, UTF-16; else the
/// detected legacy encoding, or `default` when the guess rests on little
/// and `default` decodes the bytes without errors.
pub fn decode<'a>(bytes: &'a [u8], default: Option<&'static Encoding>) -> Decoded<'a> {
    if let Some((encoding, bom)) = Encoding::for_bom(bytes).filter(|(e, _)| *e == UTF_16LE || *e == UTF_16BE) {
        let (text, _) = encoding.decode_without_bom_handling(&bytes[bom..]);
        return Decoded { text, encoding: Some(name(encoding)) };
    }
    if let Ok(text) = std::str::from_utf8(bytes) {
        return Decoded { text: Cow::Borrowed(text), encoding: None };
    }
    let mut detector = EncodingDetector::new(Iso2022JpDetection::Deny);
    detector.feed(bytes, true);
    let guess = detector.guess(None, Utf8Detection::Deny);
    let unsure = bytes.iter().filter(|b| !b.is_ascii()).count() < UNSURE_BELOW;
    let encoding = match default {
        Some(d) if unsure && d != guess && !d.decode_without_bom_handling(bytes).1 => d,
        _ => guess,
    };
    let (text, _) = encoding.decode_without_bom_handling(bytes);
    Decoded { text, encoding: Some(name(encoding)) }
}

/// An encoding's name as a scan report and a config write it (`windows-1251`).
pub fn name(encoding: &'static Encoding) -> &'static str {
    match encoding.name() {
        "UTF-16LE" => "utf-16le",
        "UTF-16BE" => "utf-16be",
        "Shift_JIS" => "shift_jis",
        "EUC-JP" => "euc-jp",
        "EUC-KR" => "euc-kr",
        "KOI8-R" => "koi8-r",
        "KOI8-U" => "koi8-u",
        "GBK" => "gbk",
        "Big5" => "big5",
        "gb18030" => "gb18030",
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encoded(text: &str, label: &str) -> Vec<u8> {
        let (bytes, _, errors) = Encoding::for_label(label.as_bytes()).unwrap().encode(text);
        assert!(!errors, "{label} holds {text:?}");
        bytes.into_owned()
    }

    #[test]
    fn utf8_is_read_as_is() {
        let d = decode("def f():\n    return 'é'\n".as_bytes(), None);
        assert_eq!((d.text.as_ref(), d.encoding), ("def f():\n    return 'é'\n", None));
    }

    #[test]
    fn utf16_with_a_bom_is_text() {
        let mut bytes = vec![0xFF, 0xFE];
        for unit in "class Калькулятор { }\r\n".encode_utf16() {
            bytes.extend(unit.to_le_bytes());
        }
        assert!(utf16_bom(&bytes));
        let d = decode(&bytes, None);
        assert_eq!((d.text.as_ref(), d.encoding), ("class Калькулятор { }\r\n", Some("utf-16le")));
    }

    #[test]
    fn legacy_encodings_are_detected() {
        let russian = "# Расчёт скидки для постоянного покупателя: чем дольше клиент с нами, тем больше скидка.\n\
                       def loyalty_discount(years):\n    return min(years * 0.02, 0.2)\n";
        let chinese =
            "# 计算折扣：老客户享受更多优惠，每年增加百分之二，最多百分之二十。\ndef discount(years):\n    return 0\n";
        let japanese =
            "# 割引を計算する：長く利用している顧客ほど割引が大きくなります。\ndef waribiki(nen):\n    return 0\n";
        for (text, label, name) in
            [(russian, "windows-1251", "windows-1251"), (chinese, "gbk", "gbk"), (japanese, "shift_jis", "shift_jis")]
        {
            let bytes = encoded(text, label);
            let d = decode(&bytes, None);
            assert_eq!((d.text.as_ref(), d.encoding), (text, Some(name)), "{label}");
        }
    }

    #[test]
    fn a_default_wins_only_where_the_guess_rests_on_little() {
        let short = encoded("# Привет\nx = 1\n", "koi8-r");
        let koi8 = Encoding::for_label(b"koi8-r");
        assert_eq!(decode(&short, koi8).text, "# Привет\nx = 1\n");
        assert_eq!(decode(&short, koi8).encoding, Some("koi8-r"));
        let long = encoded(&"# Съешь же ещё этих мягких французских булок, да выпей чаю.\n".repeat(4), "windows-1251");
        assert_eq!(decode(&long, koi8).encoding, Some("windows-1251"), "a confident guess stands");
    }
}
