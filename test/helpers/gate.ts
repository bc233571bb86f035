/** A promise and the function that settles it, for holding a scripted reply until the test says so. */
export function gate(): { readonly promise: Promise<void>; open(): void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}
