// Width and height of the images notebooks carry, read from their headers, so an output can be
// described ("image/png 640x480") to a model that cannot see it.

/** The pixel size of a PNG, JPEG, GIF or WebP image, or undefined when its header does not say. */
export function imageDimensions(bytes: Uint8Array): { readonly width: number; readonly height: number } | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const has = (length: number) => bytes.byteLength >= length;
  // PNG: the IHDR chunk comes first.
  if (has(24) && bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[12] === 0x49 && bytes[13] === 0x48) {
    return { width: view.getUint32(16), height: view.getUint32(20) };
  }
  // GIF: the logical screen size, little-endian.
  if (has(10) && bytes[0] === 0x47 && bytes[1] === 0x49 && bytes[2] === 0x46) {
    return { width: view.getUint16(6, true), height: view.getUint16(8, true) };
  }
  if (has(30) && bytes[0] === 0x52 && bytes[8] === 0x57 && bytes[9] === 0x45) return webpDimensions(bytes, view);
  if (has(4) && bytes[0] === 0xff && bytes[1] === 0xd8) return jpegDimensions(bytes, view);
  return undefined;
}

function webpDimensions(bytes: Uint8Array, view: DataView): { width: number; height: number } | undefined {
  const chunk = String.fromCharCode(bytes[12]!, bytes[13]!, bytes[14]!, bytes[15]!);
  if (chunk === 'VP8X') return { width: 1 + (view.getUint32(24, true) & 0xffffff), height: 1 + (view.getUint32(27, true) & 0xffffff) };
  if (chunk === 'VP8 ') return { width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff };
  if (chunk === 'VP8L' && bytes.byteLength >= 25) {
    const bits = view.getUint32(21, true);
    return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >> 14) & 0x3fff) };
  }
  return undefined;
}

/** JPEG: the first start-of-frame marker's size, found by walking the segments. */
function jpegDimensions(bytes: Uint8Array, view: DataView): { width: number; height: number } | undefined {
  let at = 2;
  while (at + 9 < bytes.byteLength) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at++;
      continue;
    }
    const length = view.getUint16(at + 2);
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) return { width: view.getUint16(at + 7), height: view.getUint16(at + 5) };
    at += 2 + length;
  }
  return undefined;
}
