package org.salgate.client.cli;

/** The exit codes of the client CLI; {@link #help()} is how {@code --help} lists them. */
public final class ExitCodes {

    /** The request succeeded. */
    public static final int OK = 0;
    /** The agent refused or failed the request (or a read came back with an error status). */
    public static final int FAILED = 1;
    /** The command line was wrong: unknown option, missing argument, unreadable file, unknown transport. */
    public static final int USAGE = 2;
    /**
     * No session: the agent could not be reached, refused the connection or the hello, or the
     * connection broke.
     */
    public static final int CANNOT_CONNECT = 3;

    private ExitCodes() {}

    /** The exit codes and what each means, for the help. */
    static String help() {
        return "Exit codes: " + OK + " ok; " + FAILED + " the agent refused or failed the request; " + USAGE
                + " usage error; " + CANNOT_CONNECT + " no session: the agent could not be reached, refused the"
                + " connection or the hello, or the connection broke.";
    }
}
