import { IconButton } from '../common/icon-button.js';

/** An image for the next message: its name, the bytes as base64, and a data URL to show it. */
export interface PendingImage {
  readonly name: string;
  readonly data: string;
  readonly url: string;
}

/** Images the host accepts per message, and the largest (larger ones are refused there, saying why). */
export const MAX_IMAGES = 10;

/** Reads image files (pasted, dropped or picked) for a message; other files are left out. */
export async function readImages(files: Iterable<File>): Promise<PendingImage[]> {
  const images = [...files].filter((file) => file.type.startsWith('image/'));
  return Promise.all(
    images.map(
      (file) =>
        new Promise<PendingImage>((resolve, reject) => {
          const reader = new FileReader();
          reader.onload = () => {
            const url = String(reader.result);
            resolve({ name: file.name || 'pasted-image.png', data: url.slice(url.indexOf(',') + 1), url });
          };
          reader.onerror = () => reject(reader.error ?? new Error(`Could not read ${file.name}`));
          reader.readAsDataURL(file);
        }),
    ),
  );
}

/** The images waiting to go with the next message, each removable. */
export function ImageStrip({ images, onRemove }: { images: readonly PendingImage[]; onRemove: (index: number) => void }) {
  if (images.length === 0) return null;
  return (
    <ul className="image-strip" aria-label="Images for the next message">
      {images.map((image, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the same image may be added twice; its place tells them apart
        <li key={index} className="image-chip">
          <img src={image.url} alt={image.name} />
          <span className="small">{image.name}</span>
          <IconButton icon="close" label={`Remove ${image.name}`} onClick={() => onRemove(index)} />
        </li>
      ))}
    </ul>
  );
}
