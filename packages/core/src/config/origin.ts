/** Android app origins as browsers report them to the DC API (`android:apk-key-hash:<base64url>`). */
const ANDROID_ORIGIN = /^android:apk-key-hash:[A-Za-z0-9_-]+={0,2}$/;

/**
 * A web origin exactly as `window.location.origin` renders it: http(s)://host[:port], lower-case,
 * no default port, no path, query, fragment or trailing slash. Other schemes (ftp, ws, data,
 * javascript, …) are refused: the DC API only runs in secure web contexts and Android apps.
 */
export function isExpectedOrigin(value: string): boolean {
  if (ANDROID_ORIGIN.test(value)) return true;
  if (!/^https?:\/\/[^/?#\s@]+$/.test(value)) return false;
  try {
    return new URL(value).origin === value;
  } catch {
    return false;
  }
}
