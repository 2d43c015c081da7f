package org.salgate.client.cli;

/** The exit codes of the client CLI. */
public final class ExitCodes {

    /** The request succeeded. */
    public static final int OK = 0;
    /** The agent refused or failed the request (or a read came back with an error status). */
    public static final int FAILED = 1;
    /** The command line was wrong: unknown option, missing argument, unreadable file, unknown transport. */
    public static final int USAGE = 2;
    /** The agent could not be reached, refused the connection, or the connection broke. */
    public static final int CANNOT_CONNECT = 3;

    private ExitCodes() {}
}
