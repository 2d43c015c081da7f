package org.salgate.plugin.tck;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.salgate.plugin.dummy.DummyPlugin;
import org.salgate.plugin.spi.PluginContext;
import org.salgate.plugin.spi.PluginException;
import org.salgate.plugin.spi.SensorPlugin;
import org.salgate.plugin.spi.SensorProtocol;
import org.salgate.sensorml.ProtocolConfig;

/** Plugins that break what the suite checks, each in one way: the suite must fail them. */
final class FaultyPlugins {

    private FaultyPlugins() {
    }

    /** Dummy sensors {@code <protocol name>_0..}, the configuration's parameters left out. */
    private static SensorProtocol dummies(ProtocolConfig config, PluginContext context) throws PluginException {
        return new DummyPlugin().open(new ProtocolConfig(config.name(), "dummy", config.endpoint(),
                Map.of("prefix", config.name())),
                context);
    }

    /** Type {@code tck-leaky}: each protocol starts a thread that its close leaves running. */
    public static final class Leaky implements SensorPlugin {
        static final List<Thread> LEFT = new CopyOnWriteArrayList<>();

        @Override
        public String type() {
            return "tck-leaky";
        }

        @Override
        public SensorProtocol open(ProtocolConfig config, PluginContext context) throws PluginException {
            Thread poller = new Thread(() -> {
                try {
                    Thread.sleep(Long.MAX_VALUE);
                } catch (InterruptedException e) {
                    // the test's clean-up
                }
            }, "tck-leaky-poller");
            poller.setDaemon(true);
            poller.start();
            LEFT.add(poller);
            return dummies(config, context);
        }

        static void stopAll() {
            LEFT.forEach(Thread::interrupt);
            LEFT.clear();
        }
    }

    /** Type {@code tck-lax}: opens whatever it is given, however wrong. */
    public static final class Lax implements SensorPlugin {
        @Override
        public String type() {
            return "tck-lax";
        }

        @Override
        public SensorProtocol open(ProtocolConfig config, PluginContext context) throws PluginException {
            return dummies(config, context);
        }
    }

    /** Type {@code tck-brittle}: refuses a negative {@code sensors} by throwing an IllegalArgumentException. */
    public static final class Brittle implements SensorPlugin {
        @Override
        public String type() {
            return "tck-brittle";
        }

        @Override
        public SensorProtocol open(ProtocolConfig config, PluginContext context) throws PluginException {
            if (Integer.parseInt(config.parameter("sensors", "1")) < 0) {
                throw new IllegalArgumentException("sensors must not be negative");
            }
            return dummies(config, context);
        }
    }
}
