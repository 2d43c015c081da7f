package org.salgate.plugin.snmp;

import java.util.Optional;
import org.salgate.plugin.spi.DeviceAddress;
import org.salgate.plugin.spi.Endpoint;
import org.salgate.plugin.spi.PluginContext;

/** A plugin context on one endpoint, whose target the agent parsed or not. */
record TestContext(Endpoint endpoint) implements PluginContext {

    /** An endpoint as the agent gives it, with its target parsed by the plugin's endpoint type. */
    static TestContext on(String spec) {
        int colon = spec.indexOf(':');
        String type = spec.substring(0, colon);
        String address = spec.substring(colon + 1);
        DeviceAddress target = new SnmpPlugin().endpointTypes().stream().filter(t -> t.name().equals(type))
                .findFirst().orElseThrow().parse(address);
        return new TestContext(new TestEndpoint(type, address, Optional.of(target)));
    }

    /** An endpoint without a parsed target. */
    static TestContext unparsed(String type, String address) {
        return new TestContext(new TestEndpoint(type, address, Optional.empty()));
    }

    @Override
    public long nowMicros() {
        return System.currentTimeMillis() * 1000;
    }

    record TestEndpoint(String type, String address, Optional<DeviceAddress> target) implements Endpoint {}
}
