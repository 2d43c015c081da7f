package org.salgate.plugin.os;

import org.salgate.plugin.spi.Endpoint;
import org.salgate.plugin.spi.PluginContext;

/** A plugin context on a fixed endpoint. */
record TestContext(Endpoint endpoint) implements PluginContext {

    static TestContext on(String type) {
        return new TestContext(new TestEndpoint(type, ""));
    }

    @Override
    public long nowMicros() {
        return System.currentTimeMillis() * 1000;
    }

    record TestEndpoint(String type, String address) implements Endpoint {}
}
