package org.salgate.agent.testing;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;
import org.salgate.sensorml.Cml;
import org.salgate.sensorml.Output;
import org.salgate.sensorml.Pcml;
import org.salgate.sensorml.PlatformConfig;
import org.salgate.sensorml.SamplingBounds;
import org.salgate.sensorml.SensorDescription;
import org.salgate.sensorml.SensorMl;

/** Skips a test while the SensorML module installed in the local repository is still a stub. */
public final class Documents {

    private Documents() {}

    public static void assumeImplemented() {
        boolean ready;
        try {
            SensorDescription d = new SensorDescription("X", "x", "p", "",
                    List.of(Output.quantity("value", "http://example.org/v", "1")), SamplingBounds.ANY);
            SensorMl.read(SensorMl.write(d));
            Cml.write(List.of());
            Pcml.read(Pcml.write(new PlatformConfig(List.of(new org.salgate.sensorml.ProtocolConfig("a", "b", "os",
                    java.util.Map.of())))));
            ready = true;
        } catch (UnsupportedOperationException e) {
            ready = false;
        } catch (Exception e) {
            ready = true;
        }
        assumeTrue(ready, "the SensorML/CML/PCML implementation is not installed yet");
    }
}
