// A QR code drawn as one SVG path of its dark modules (encoded by uqr, a small well-kept
// encoder). SVG attributes, not a `style`, so the CSP of 'self' holds; black on white with a
// quiet zone, as a phone's camera needs whatever the page's theme.
import { encode } from 'uqr';

export function Qr({ text, label, testid }: { text: string; label: string; testid?: string }) {
  const { size, data } = encode(text, { ecc: 'M', border: 2 });
  let d = '';
  data.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) d += `M${x} ${y}h1v1h-1z`;
    }),
  );
  return (
    <svg
      class="qr"
      role="img"
      aria-label={label}
      data-testid={testid}
      data-text={text}
      viewBox={`0 0 ${size} ${size}`}
      shape-rendering="crispEdges"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={d} fill="#000" />
    </svg>
  );
}
