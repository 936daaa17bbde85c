//! The byte layout shared by the opening book and the Yixin-Board database files: a magic word,
//! a version, little-endian fields, and an FNV-1a checksum of everything before it as the last 8
//! bytes, so that a truncated, foreign or damaged file is refused whole (never half read).
//! Reading never panics: every failure is a [`FormatError`].

use std::fmt;

/// Why a file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FormatError {
    /// It does not start with the expected magic word: another kind of file.
    Foreign,
    /// A version this build does not read.
    Version(u16),
    /// It ends early (at this byte), or its checksum is missing.
    Truncated(usize),
    /// The checksum does not match: damaged.
    Checksum,
    /// A field that cannot be right, at this byte.
    Invalid(usize, &'static str),
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormatError::Foreign => write!(f, "not a Pentad file of this kind (bad magic word)"),
            FormatError::Version(v) => write!(f, "format version {v} is not supported"),
            FormatError::Truncated(at) => write!(f, "truncated at byte {at}"),
            FormatError::Checksum => write!(f, "checksum mismatch (damaged file)"),
            FormatError::Invalid(at, what) => write!(f, "invalid {what} at byte {at}"),
        }
    }
}

impl std::error::Error for FormatError {}

/// FNV-1a over `bytes`.
pub fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Builds a file: the magic word and version first, [`Writer::finish`] appends the checksum.
pub struct Writer {
    bytes: Vec<u8>,
}

impl Writer {
    /// A file of the kind `magic`, format `version`.
    pub fn new(magic: &[u8; 8], version: u16) -> Writer {
        let mut w = Writer {
            bytes: magic.to_vec(),
        };
        w.u16(version);
        w
    }
    /// One byte.
    pub fn u8(&mut self, v: u8) {
        self.bytes.push(v);
    }
    /// Little-endian fields.
    pub fn u16(&mut self, v: u16) {
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }
    /// See [`Writer::u16`].
    pub fn u32(&mut self, v: u32) {
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }
    /// See [`Writer::u16`].
    pub fn u64(&mut self, v: u64) {
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }
    /// See [`Writer::u16`].
    pub fn i16(&mut self, v: i16) {
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }
    /// See [`Writer::u16`].
    pub fn i32(&mut self, v: i32) {
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }
    /// A string: its length in bytes (u32), then its UTF-8.
    pub fn text(&mut self, s: &str) {
        self.u32(s.len() as u32);
        self.bytes.extend_from_slice(s.as_bytes());
    }
    /// The file, checksum appended.
    pub fn finish(mut self) -> Vec<u8> {
        let sum = checksum(&self.bytes);
        self.u64(sum);
        self.bytes
    }
}

/// Reads a file's fields in order after checking its magic word, version and checksum.
pub struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    /// Checks the frame of `bytes` (magic, a version in `versions`, checksum) and returns the
    /// version and a reader of the body.
    pub fn open(
        bytes: &'a [u8],
        magic: &[u8; 8],
        versions: &[u16],
    ) -> Result<(u16, Reader<'a>), FormatError> {
        if bytes.len() < 8 || &bytes[..8] != magic {
            return Err(FormatError::Foreign);
        }
        if bytes.len() < 10 + 8 {
            return Err(FormatError::Truncated(bytes.len()));
        }
        let version = u16::from_le_bytes([bytes[8], bytes[9]]);
        if !versions.contains(&version) {
            return Err(FormatError::Version(version));
        }
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        let sum = u64::from_le_bytes(sum.try_into().expect("8 bytes"));
        if checksum(body) != sum {
            return Err(FormatError::Checksum);
        }
        Ok((
            version,
            Reader {
                bytes: body,
                at: 10,
            },
        ))
    }

    /// Where the next field starts.
    pub fn position(&self) -> usize {
        self.at
    }
    /// True when every field has been read.
    pub fn is_done(&self) -> bool {
        self.at == self.bytes.len()
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], FormatError> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&e| e <= self.bytes.len())
            .ok_or(FormatError::Truncated(self.bytes.len()))?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }
    /// One byte.
    pub fn u8(&mut self) -> Result<u8, FormatError> {
        Ok(self.take(1)?[0])
    }
    /// Little-endian fields.
    pub fn u16(&mut self) -> Result<u16, FormatError> {
        Ok(u16::from_le_bytes(self.take(2)?.try_into().expect("2")))
    }
    /// See [`Reader::u16`].
    pub fn u32(&mut self) -> Result<u32, FormatError> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().expect("4")))
    }
    /// See [`Reader::u16`].
    pub fn u64(&mut self) -> Result<u64, FormatError> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().expect("8")))
    }
    /// See [`Reader::u16`].
    pub fn i16(&mut self) -> Result<i16, FormatError> {
        Ok(i16::from_le_bytes(self.take(2)?.try_into().expect("2")))
    }
    /// See [`Reader::u16`].
    pub fn i32(&mut self) -> Result<i32, FormatError> {
        Ok(i32::from_le_bytes(self.take(4)?.try_into().expect("4")))
    }
    /// A key of a list kept in increasing key order: refused unless above `last` (then it
    /// becomes `last`); `what` names the list in the error.
    pub fn key_after(
        &mut self,
        last: &mut Option<u64>,
        what: &'static str,
    ) -> Result<u64, FormatError> {
        let at = self.at;
        let key = self.u64()?;
        if last.is_some_and(|l| l >= key) {
            return Err(FormatError::Invalid(at, what));
        }
        *last = Some(key);
        Ok(key)
    }
    /// A string written by [`Writer::text`].
    pub fn text(&mut self) -> Result<String, FormatError> {
        let at = self.at;
        let n = self.u32()? as usize;
        let raw = self.take(n)?;
        String::from_utf8(raw.to_vec()).map_err(|_| FormatError::Invalid(at, "UTF-8 text"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAGIC: &[u8; 8] = b"PENTADXX";

    fn sample() -> Vec<u8> {
        let mut w = Writer::new(MAGIC, 3);
        w.u8(7);
        w.i16(-5);
        w.text("héllo");
        w.u64(u64::MAX);
        w.finish()
    }

    #[test]
    fn fields_come_back_in_order() {
        let bytes = sample();
        let (v, mut r) = Reader::open(&bytes, MAGIC, &[3]).unwrap();
        assert_eq!(v, 3);
        assert_eq!(r.u8(), Ok(7));
        assert_eq!(r.i16(), Ok(-5));
        assert_eq!(r.text().as_deref(), Ok("héllo"));
        assert_eq!(r.u64(), Ok(u64::MAX));
        assert!(r.is_done());
        assert_eq!(r.u8(), Err(FormatError::Truncated(bytes.len() - 8)));
    }

    #[test]
    fn every_truncation_and_every_flipped_bit_is_refused() {
        let bytes = sample();
        for n in 0..bytes.len() {
            assert!(Reader::open(&bytes[..n], MAGIC, &[3]).is_err(), "{n}");
        }
        for i in 0..bytes.len() {
            let mut bad = bytes.clone();
            bad[i] ^= 0x10;
            assert!(Reader::open(&bad, MAGIC, &[3]).is_err(), "{i}");
        }
        assert_eq!(
            Reader::open(&bytes, b"PENTADYY", &[3]).err(),
            Some(FormatError::Foreign)
        );
        assert_eq!(
            Reader::open(&bytes, MAGIC, &[1, 2]).err(),
            Some(FormatError::Version(3))
        );
    }
}
