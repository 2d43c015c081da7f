package org.salgate.plugin.dummy;

import java.util.List;
import org.salgate.sensorml.Argument;
import org.salgate.sensorml.CommandDescription;
import org.salgate.sensorml.Output;
import org.salgate.sensorml.SamplingBounds;

/** The commands and outputs every dummy sensor has. */
final class DummyCommands {

    static final String READ = "read";
    static final String PAYLOAD = "payload";
    static final String RAMP = "ramp";
    static final String SIZE = "size";

    /** What {@code read} always returns, as SAL's dummy sensors returned a constant value. */
    static final double READING = 42.0;
    /** UCUM for a dimensionless number. */
    static final String READING_UNIT = "1";

    static final List<Output> OUTPUTS = List.of(
            Output.quantity("value", "urn:salgate:def:property:dummyConstant", READING_UNIT),
            new Output("payload", "urn:salgate:def:property:dummyPayload", Output.DataType.BINARY, ""),
            Output.quantity("ramp", "urn:salgate:def:property:dummyRamp", READING_UNIT));

    private DummyCommands() {}

    /** The {@code read}, {@code payload} and {@code ramp} commands, with {@code payload} defaulting to {@code defaultSize} bytes. */
    static List<CommandDescription> all(int defaultSize) {
        CommandDescription read = CommandDescription.builder(READ)
                .name("Read")
                .shortDescription("A constant reading: always " + READING + ".")
                .longDescription("Returns the same dimensionless decimal every time, so that a benchmark"
                        + " measures the gateway and not the sensor.")
                .response("decimal", READING_UNIT)
                .streaming(SamplingBounds.ANY)
                .build();
        CommandDescription payload = CommandDescription.builder(PAYLOAD)
                .name("Payload")
                .shortDescription("Opaque bytes of the requested size.")
                .longDescription("Returns exactly 'size' bytes of a fixed pattern (byte i is i mod 256)."
                        + " Readings of one size share one array, which receivers must not modify.")
                .argument(new Argument(SIZE, Argument.Type.INTEGER, 0.0, (double) DummyParameters.MAX_PAYLOAD_BYTES,
                        Integer.toString(defaultSize), true, "How many bytes to return."))
                .response("bytes", "By")
                .streaming(SamplingBounds.ANY)
                .build();
        CommandDescription ramp = CommandDescription.builder(RAMP)
                .name("Ramp")
                .shortDescription("A staircase: 0, 1, 2, ... one more at each read.")
                .longDescription("Returns the dimensionless decimal 0 at the sensor's first ramp read and one more"
                        + " at each following one (one count per sensor, whoever reads it), so that a test of"
                        + " report by exception knows every value a stream reads.")
                .response("decimal", READING_UNIT)
                .streaming(SamplingBounds.ANY)
                .build();
        return List.of(read, payload, ramp);
    }
}
