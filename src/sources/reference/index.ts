// Reference data shipped with Tidemark: carriers, Class I railroads, North American terminals, ports and inland
// rail hubs, with their stable wire ids. Compiled from ../shared/reference/data, never read from there at run time.
export * from './carriers.js';
export * from './ports.js';
export * from './rail-hubs.js';
export * from './railroads.js';
export * from './terminals.js';
