/** The length of a string encoded as UTF-8, without allocating the encoding. */
export function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    // A surrogate pair is one 4-byte code point: count 2 for each half. A lone surrogate is
    // written as U+FFFD (3 bytes), which this counts as 2; lone surrogates never reach a sender.
    else if (unit >= 0xd800 && unit <= 0xdfff) bytes += 2;
    else bytes += 3;
  }
  return bytes;
}
