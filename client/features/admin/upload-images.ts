import {
  ACCEPTED_IMAGE_TYPES,
  normalizeImageResultSchema,
  uploadUrlResultSchema,
  type UploadUrlBody,
} from '../../../common/contracts/admin';
import { apiJson } from '../../lib/api-client';

export type UploadProgress = (fraction: number) => void;

/** PUT the raw file to the signed URL; XMLHttpRequest because fetch cannot report upload progress. */
function putFile(url: string, file: File, onProgress: UploadProgress): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    // Same-origin local storage needs the session cookie; a presigned S3 URL ignores it.
    xhr.withCredentials = new URL(url, window.location.href).origin === window.location.origin;
    xhr.setRequestHeader('content-type', file.type || 'application/octet-stream');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () =>
      xhr.status >= 200 && xhr.status < 300
        ? resolve()
        : reject(new Error(`${xhr.status}: ${xhr.responseText || xhr.statusText}`));
    xhr.onerror = () => reject(new Error('Network error while uploading'));
    xhr.onabort = () => reject(new Error('Upload aborted'));
    xhr.send(file);
  });
}

/**
 * docs/product.md §7 image upload, one file: upload-url → PUT → normalize. Resolves to the stored path,
 * or null when any step fails (failures are only logged, docs/product.md §8).
 */
export async function uploadImage(file: File, onProgress: UploadProgress): Promise<string | null> {
  try {
    // Binding type and size into the URL lets storage refuse anything else before it is written.
    const accepted = (ACCEPTED_IMAGE_TYPES as readonly string[]).includes(file.type);
    const body: UploadUrlBody = accepted
      ? { contentType: file.type as UploadUrlBody['contentType'], size: file.size || undefined }
      : {};
    const { uploadURL } = await apiJson(
      'POST',
      '/api/admin/images/upload-url',
      body,
      uploadUrlResultSchema.pick({ uploadURL: true }),
    );
    await putFile(uploadURL, file, onProgress);
    const { normalizedPath } = await apiJson(
      'POST',
      '/api/admin/images/normalize',
      { imageUrl: uploadURL },
      normalizeImageResultSchema,
    );
    onProgress(1);
    return normalizedPath;
  } catch (error) {
    console.error(`Image upload failed for ${file.name}`, error);
    return null;
  }
}
