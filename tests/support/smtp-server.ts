import net from 'node:net';

export interface SmtpServerOptions {
  /** A relay that accepts the connection and then never says a word (no greeting, no reply). */
  hang?: boolean;
  /** The reply to RCPT TO for an address, e.g. '550 5.1.1 No such user'; null accepts it. */
  refuse?: (address: string) => string | null;
}

export interface SmtpTestServer {
  /** What each accepted message's DATA carried. */
  received: string[];
  /** Connections the client (the shop) closed, e.g. when it gave up waiting for a greeting. */
  closedByClient(): number;
  close(): Promise<void>;
}

/** Just enough SMTP to take messages: records what DATA carried. */
export function smtpServer(port: number, opts: SmtpServerOptions = {}): Promise<SmtpTestServer> {
  const received: string[] = [];
  const sockets = new Set<net.Socket>();
  let closing = false;
  let closedByClient = 0;
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => {
      sockets.delete(socket);
      if (!closing) closedByClient++;
    });
    socket.on('error', () => undefined);
    if (opts.hang) return;
    let buffer = '';
    let inData = false;
    let refused = false;
    socket.write('220 localhost ESMTP test\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          received.push(buffer.slice(0, end));
          buffer = buffer.slice(end + 5);
          inData = false;
          socket.write('250 OK queued\r\n');
          continue;
        }
        const nl = buffer.indexOf('\r\n');
        if (nl < 0) return;
        const raw = buffer.slice(0, nl);
        const line = raw.toUpperCase();
        buffer = buffer.slice(nl + 2);
        if (line.startsWith('EHLO') || line.startsWith('HELO')) socket.write('250 localhost\r\n');
        else if (line.startsWith('MAIL FROM')) {
          refused = false;
          socket.write('250 OK\r\n');
        } else if (line.startsWith('RCPT TO')) {
          const reply = opts.refuse?.(/<([^>]*)>/.exec(raw)?.[1] ?? '') ?? null;
          if (reply) refused = true;
          socket.write(`${reply ?? '250 OK'}\r\n`);
        } else if (line.startsWith('DATA')) {
          if (refused) socket.write('554 no valid recipients\r\n');
          else {
            inData = true;
            socket.write('354 go ahead\r\n');
          }
        } else if (line.startsWith('QUIT')) socket.end('221 bye\r\n');
        else socket.write('250 OK\r\n');
      }
    });
  });
  return new Promise((resolve) =>
    server.listen(port, '127.0.0.1', () =>
      resolve({
        received,
        closedByClient: () => closedByClient,
        close: () =>
          new Promise((r) => {
            closing = true;
            // A hanging relay's connections would keep server.close() waiting for ever.
            for (const socket of sockets) socket.destroy();
            server.close(() => r());
          }),
      }),
    ),
  );
}
