// MQTT topic filters (`+` one level, `#` the rest), as the broker matches them, to find which
// trigger a delivered message belongs to.
export function topicMatches(filter: string, topic: string): boolean {
  const f = filter.split('/');
  const t = topic.split('/');
  for (let i = 0; i < f.length; i++) {
    if (f[i] === '#') return true;
    if (i >= t.length) return false;
    if (f[i] !== '+' && f[i] !== t[i]) return false;
  }
  return f.length === t.length;
}

/** The trigger topic of an interface: `<environment>/<interface>/<mqtt value>`. */
export const triggerTopic = (environment: string, iface: string, value: string) => `${environment}/${iface}/${value}`;
