/** What the upload route answers with on success. */
export interface UploadedImport {
  id: string;
  fileName: string;
  totalRows: number;
}

/**
 * Sends the file itself as the body of `POST /files/imports`. XMLHttpRequest, not fetch: only it
 * reports upload progress (Chromium streams a fetch body only over HTTP/2), and like fetch it
 * reads the File from disk as it sends, never into the page's memory.
 */
export function uploadFile(file: File, onProgress: (sent: number, total: number) => void, signal?: AbortSignal): Promise<UploadedImport> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("POST", `/files/imports?name=${encodeURIComponent(file.name)}`);
    request.setRequestHeader("Content-Type", "text/csv");
    request.withCredentials = true;
    request.responseType = "json";
    request.upload.onprogress = (event) => onProgress(event.loaded, event.lengthComputable ? event.total : file.size);
    request.onload = () => {
      const body = request.response as { import?: UploadedImport; error?: { message?: string } } | null;
      if (request.status === 201 && body?.import) resolve(body.import);
      else reject(new Error(body?.error?.message ?? `The upload failed (HTTP ${request.status}).`));
    };
    request.onerror = () => reject(new Error("The upload was interrupted: check your connection and try again."));
    request.onabort = () => reject(new DOMException("The upload was canceled.", "AbortError"));
    signal?.addEventListener("abort", () => request.abort(), { once: true });
    request.send(file);
  });
}
