package org.salgate.program;

/**
 * Process-wide defaults that this project's programs (the agent, the client command line, the
 * bench and its server and client processes) set as the first thing in {@code main}. A library
 * never sets them: a program that embeds the agent or the client keeps its own.
 *
 * <p>One default so far: Netty's buffer leak detector is off unless the operator chose a level.
 * At Netty's own default ({@code simple}) it wraps a sample of the buffers it hands out and
 * records stack traces for each, on every connection of the Netty, HTTP and gRPC transports.
 * Turning it off took 13-17 % off gRPC's one-client call, 7-9 % off HTTP's, and no more than the
 * noise off Netty's (docs/performance.md). The test suites' own JVMs keep Netty's default, so the
 * detector still watches the tests (an agent or bench process a test starts runs as it would in
 * use). An operator who suspects a leak turns it back on with
 * {@code -Dio.netty.leakDetection.level=simple} (or {@code advanced} or {@code paranoid}).
 */
public final class ProgramDefaults {

    /** Netty's system property for its buffer leak detector's level. */
    public static final String NETTY_LEAK_DETECTION = "io.netty.leakDetection.level";

    /** The older name of that property, which Netty still reads when the newer one is not set. */
    public static final String NETTY_LEAK_DETECTION_OLD = "io.netty.leakDetectionLevel";

    /** The level this project's programs run with when the operator gave none. */
    public static final String NETTY_LEAK_DETECTION_DEFAULT = "disabled";

    /** Netty's own default level, which runs when no one chose one. */
    public static final String NETTY_LEAK_DETECTION_NETTY_DEFAULT = "simple";

    private ProgramDefaults() {
    }

    /**
     * Applies the defaults the operator did not override. Call it before anything allocates a Netty
     * buffer: Netty reads the level once.
     *
     * @return the leak detector's level in effect for this process
     */
    public static String apply() {
        if (chosenLeakDetection() == null) {
            System.setProperty(NETTY_LEAK_DETECTION, NETTY_LEAK_DETECTION_DEFAULT);
        }
        return leakDetection();
    }

    /** The level Netty's leak detector runs at in this process, as Netty reads its properties. */
    public static String leakDetection() {
        String chosen = chosenLeakDetection();
        return chosen != null ? chosen : NETTY_LEAK_DETECTION_NETTY_DEFAULT;
    }

    private static String chosenLeakDetection() {
        for (String property : new String[] {NETTY_LEAK_DETECTION, NETTY_LEAK_DETECTION_OLD}) {
            String level = System.getProperty(property);
            if (level != null && !level.isBlank()) {
                return level.trim();
            }
        }
        return null;
    }
}
