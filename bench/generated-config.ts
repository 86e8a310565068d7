// A config of `n` ordinary interfaces (an upstream call, a few light transforms, a param), for
// the cold-start, bundle-size and compile-time measurements.
export function manyInterfaces(n: number): string {
  const lines = ['interfaces:'];
  for (let i = 1; i <= n; i++) {
    lines.push(
      `  item_${i}:`,
      `    method: GET`,
      `    route: /items/${i}`,
      `    params:`,
      `      limit: { default_value: "10", validate: { regex: "^[0-9]{1,3}$" } }`,
      `    actions:`,
      `      - name: Fetch`,
      `        url: a|var::UPSTREAM|/item/${i}`,
      `        output: http`,
      `        post_transforms:`,
      `          - add_attribute: { source: "bench ${i}", limit: "a|params::limit|" }`,
      `          - math: { expressions: { gross: "target.price * 1.2" }, decimal_places: 2 }`,
      `          - rename_attributes: { name: title }`,
      `          - keep_attributes: [id, title, gross, source, limit]`,
    );
  }
  return lines.join('\n') + '\n';
}
