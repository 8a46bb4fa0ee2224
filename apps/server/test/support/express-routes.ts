interface Layer {
  rawPath?: string;
  route?: { path: string; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}

export interface ExpressRoute {
  method: string;
  /** The full path, mount points included, with Express's `:param` placeholders. */
  path: string;
}

/** Every route of an Express app or router, nested routers and their mount paths included. */
export function listRoutes(appOrRouter: unknown): ExpressRoute[] {
  const routes: ExpressRoute[] = [];
  const walk = (stack: Layer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        for (const method of Object.keys(layer.route.methods)) routes.push({ method: method.toUpperCase(), path: `${prefix}${layer.route.path}` });
      } else if (layer.handle?.stack) {
        walk(layer.handle.stack, layer.rawPath && layer.rawPath !== "/" ? `${prefix}${layer.rawPath}` : prefix);
      }
    }
  };
  const root = appOrRouter as { stack?: Layer[]; router?: { stack: Layer[] } };
  walk(root.router?.stack ?? root.stack ?? [], "");
  return routes;
}
