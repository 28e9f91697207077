/** A multipart/form-data request body (app.inject's payload and headers) built by hand. */
export function multipart(
  parts: { name: string; filename?: string; type?: string; data: Buffer }[],
) {
  const boundary = '----premios-test-boundary';
  const body = Buffer.concat([
    ...parts.flatMap((part) => [
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"` +
          (part.filename ? `; filename="${part.filename}"` : '') +
          `\r\n${part.type ? `Content-Type: ${part.type}\r\n` : ''}\r\n`,
      ),
      part.data,
      Buffer.from('\r\n'),
    ]),
    Buffer.from(`--${boundary}--\r\n`),
  ]);
  return {
    payload: body,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
