/** Where uploaded files live. Keys are relative paths such as `flyers/<store>/<job>.pdf`. */
export interface FileStorage {
  put(key: string, bytes: Uint8Array): Promise<void>;
  /** The stored bytes; throws FileMissingError when the key holds nothing. */
  get(key: string): Promise<Buffer>;
  delete(key: string): Promise<void>;
}

export class FileMissingError extends Error {}
