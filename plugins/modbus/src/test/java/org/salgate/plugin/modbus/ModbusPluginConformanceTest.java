package org.salgate.plugin.modbus;

import com.ghgande.j2mod.modbus.procimg.SimpleDigitalOut;
import com.ghgande.j2mod.modbus.procimg.SimpleInputRegister;
import com.ghgande.j2mod.modbus.procimg.SimpleProcessImage;
import com.ghgande.j2mod.modbus.procimg.SimpleRegister;
import com.ghgande.j2mod.modbus.slave.ModbusSlave;
import com.ghgande.j2mod.modbus.slave.ModbusSlaveFactory;
import java.net.InetAddress;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.salgate.agent.AgentBuilder;
import org.salgate.model.Value;
import org.salgate.plugin.tck.AbstractDevicePluginConformanceTest;
import org.salgate.plugin.tck.SilentServer;
import org.salgate.sensorml.ChannelConfig;
import org.salgate.sensorml.ChannelConfig.Access;
import org.salgate.sensorml.ProtocolConfig;

/** The Modbus plugin passes the suite against an in-JVM Modbus TCP device (j2mod's slave). */
class ModbusPluginConformanceTest extends AbstractDevicePluginConformanceTest {

    private static final List<ChannelConfig> CHANNELS = List.of(
            new ChannelConfig("voltage", "", "V", 0.1, 0, Access.READ, null, null,
                    Map.of("table", "input", "address", "0")),
            new ChannelConfig("setpoint", "", "Cel", 0.5, 0, Access.READ_WRITE, 5.0, 30.0,
                    Map.of("table", "holding", "address", "1")),
            Channels.read("running", "table", "coil", "address", "0"));
    /** The readings of the device's values, scaled. */
    private static final Map<String, Value> EXPECTED = Map.of("meter.voltage", Value.of(230.0),
            "meter.setpoint", Value.of(20.0), "meter.running", Value.of(1L));

    private int port;
    private ModbusSlave device;
    private SilentServer silent;

    @BeforeEach
    void startTheDevice() throws Exception {
        port = PymodbusDevice.freePort();
        startDevice();
    }

    @AfterEach
    void stopTheDevices() throws Exception {
        stopDevice();
        if (silent != null) {
            silent.close();
        }
    }

    @Override
    protected void startDevice() throws Exception {
        SimpleProcessImage image = new SimpleProcessImage(1);
        image.addInputRegister(new SimpleInputRegister(2300));
        image.addRegister(new SimpleRegister(0));
        image.addRegister(new SimpleRegister(40));
        image.addDigitalOut(new SimpleDigitalOut(true));
        device = ModbusSlaveFactory.createTCPSlave(InetAddress.getLoopbackAddress(), port, 4, false);
        device.addProcessImage(1, image);
        device.open();
    }

    @Override
    protected void stopDevice() {
        if (device != null) {
            ModbusSlaveFactory.close(device);
            device = null;
        }
    }

    @Override
    protected ProtocolConfig protocol() {
        return new ProtocolConfig("meter", "modbus", "tcp:127.0.0.1:" + port, Map.of("unit-id", "1"), List.of(),
                List.of(), CHANNELS);
    }

    @Override
    protected ProtocolConfig unansweringDevice() throws Exception {
        silent = new SilentServer();
        return new ProtocolConfig("mute", "modbus", "tcp:127.0.0.1:" + silent.port(), Map.of("timeout-ms", "5000"),
                List.of(), List.of(), CHANNELS);
    }

    @Override
    protected void configure(AgentBuilder builder) {
        builder.deviceTargets(List.of("127.0.0.1:*"));
    }

    @Override
    protected Value expectedValue(String sensorId) {
        return EXPECTED.get(sensorId);
    }

    @Override
    protected List<BadConfiguration> badConfigurations() {
        return List.of(
                bad("unit-id", Map.of("unit-id", "0"), CHANNELS),
                bad("table", Map.of(), List.of(Channels.read("x", "table", "drawer", "address", "0"))),
                bad("address", Map.of(), List.of(Channels.read("x", "table", "input", "address", "-1"))),
                bad("type", Map.of(), List.of(Channels.read("x", "table", "input", "address", "0", "type", "int7"))));
    }

    private BadConfiguration bad(String named, Map<String, String> parameters, List<ChannelConfig> channels) {
        return new BadConfiguration(new ProtocolConfig("bad-" + named, "modbus", "tcp:127.0.0.1:" + port, parameters,
                List.of(), List.of(), channels), named);
    }

    /** The simulated device's threads (j2mod's listener and connection handlers) are the fixture's. */
    @Override
    protected boolean fixtureThread(Thread thread) {
        return Arrays.stream(thread.getStackTrace()).anyMatch(f -> f.getClassName().startsWith("com.ghgande.j2mod")
                && !f.getClassName().contains(".facade.") && !f.getClassName().contains(".io."));
    }
}
