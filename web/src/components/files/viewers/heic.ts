import libheif from 'libheif-js/libheif-wasm/libheif.js';
import wasmUrl from 'libheif-js/libheif-wasm/libheif.wasm?url';

/** Spec chart-data §2a: a HEIC photo is converted in the browser to a JPEG of quality 0.9. */
export const HEIC_JPEG_QUALITY = 0.9;

interface HeifImage {
  get_width(): number;
  get_height(): number;
  display(target: ImageData, done: (data: ImageData | null) => void): void;
  free(): void;
}
interface HeifModule {
  HeifDecoder: new () => { decode(bytes: Uint8Array): HeifImage[] };
}

let module: Promise<HeifModule> | undefined;

/**
 * libheif's WebAssembly build. Its glue evaluates no strings (no eval, no new Function), so the CSP
 * needs only 'wasm-unsafe-eval'. The wasm file (an asset of the app's own origin, fetched with the
 * first HEIC and never before) is compiled off the main thread; the glue then needs its instance
 * synchronously, because it sets up its bindings in the same turn as it starts.
 */
function heif(): Promise<HeifModule> {
  const factory = libheif as unknown as (options: object) => unknown;
  module ??= WebAssembly.compileStreaming(fetch(wasmUrl))
    .catch(async () => WebAssembly.compile(await (await fetch(wasmUrl)).arrayBuffer()))
    .then(
      (compiled) =>
        // The factory fills in the options object itself, ready when the runtime calls back.
        new Promise<HeifModule>((resolve, reject) => {
          const options = {
            instantiateWasm(imports: WebAssembly.Imports, ready: (instance: WebAssembly.Instance) => void) {
              const instance = new WebAssembly.Instance(compiled, imports);
              ready(instance);
              return instance.exports;
            },
            onRuntimeInitialized: () => resolve(options as unknown as HeifModule),
            onAbort: (reason: unknown) => reject(new Error(`libheif failed to load: ${String(reason)}`)),
          };
          factory(options);
        }),
    )
    .catch((error: unknown) => {
      module = undefined;
      throw error;
    });
  return module;
}

/** The HEIC's primary image as a JPEG blob; rejects a file libheif cannot decode. */
export async function heicToJpeg(bytes: Uint8Array): Promise<Blob> {
  const { HeifDecoder } = await heif();
  const images = new HeifDecoder().decode(bytes);
  const [image] = images;
  if (!image) throw new Error('No image in the HEIC file');
  try {
    const width = image.get_width();
    const height = image.get_height();
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const context = canvas.getContext('2d');
    if (!context) throw new Error('No 2D canvas');
    const pixels = await new Promise<ImageData>((resolve, reject) =>
      image.display(context.createImageData(width, height), (data) => (data ? resolve(data) : reject(new Error('HEIC decode failed')))),
    );
    context.putImageData(pixels, 0, 0);
    return await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('JPEG encode failed'))), 'image/jpeg', HEIC_JPEG_QUALITY),
    );
  } finally {
    for (const each of images) each.free();
  }
}
