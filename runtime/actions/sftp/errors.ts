// An sftp failure and its class: connect (never got a session: refused, unreachable, authentication,
// host key), timeout (the connect wait or the idle limit passed), or operation (the server answered
// an SFTP request with an error).
export class SftpError extends Error {
  constructor(message: string, readonly cls: 'connect' | 'timeout' | 'operation') {
    super(message);
  }
}
