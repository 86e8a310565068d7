// GitHub Actions workflow commands (`::error file=…,line=…,col=…,title=…::message`): the runner reads
// them from a step's output and annotates the files of a pull request. Values are escaped as the
// runner expects (%, CR and LF in the message; also : and , in properties).
export type AnnotationKind = 'error' | 'warning' | 'notice';

const escData = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escProp = (s: string) => escData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

export function annotation(kind: AnnotationKind, at: { file?: string; line?: number; col?: number; title?: string }, message: string): string {
  const props = [
    at.file !== undefined ? `file=${escProp(at.file)}` : '',
    at.line ? `line=${at.line}` : '',
    at.col ? `col=${at.col}` : '',
    at.title !== undefined ? `title=${escProp(at.title)}` : '',
  ].filter(Boolean).join(',');
  return `::${kind}${props ? ` ${props}` : ''}::${escData(message)}`;
}
