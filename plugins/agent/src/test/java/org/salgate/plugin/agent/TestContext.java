package org.salgate.plugin.agent;

import org.salgate.plugin.spi.Endpoint;
import org.salgate.plugin.spi.PluginContext;

/** A plugin context on a fixed endpoint, parsed as the agent would: the type is before the first colon. */
record TestContext(Endpoint endpoint) implements PluginContext {

    static TestContext on(String spec) {
        int colon = spec.indexOf(':');
        return new TestContext(colon < 0 ? new TestEndpoint(spec, "")
                : new TestEndpoint(spec.substring(0, colon), spec.substring(colon + 1)));
    }

    @Override
    public long nowMicros() {
        return System.currentTimeMillis() * 1000;
    }

    record TestEndpoint(String type, String address) implements Endpoint {}
}
