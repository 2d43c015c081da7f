package org.salgate.client.cli;

import org.salgate.client.SalException;

/** Turns an agent's failure into one sentence that says what was wrong and what to do. */
final class ErrorMessages {

    /** What a command was about; any part may be null. */
    record Subject(String sensor, String command, String protocol) {
        static final Subject NONE = new Subject(null, null, null);

        static Subject sensor(String sensor) {
            return new Subject(sensor, null, null);
        }

        static Subject command(String sensor, String command) {
            return new Subject(sensor, command, null);
        }

        static Subject protocol(String protocol) {
            return new Subject(null, null, protocol);
        }
    }

    private ErrorMessages() {}

    static String of(SalException e, Subject s) {
        String agent = e.getMessage() == null || e.getMessage().isBlank() ? e.code().toString() : e.getMessage();
        switch (e.code()) {
            case UNKNOWN_SENSOR:
                return s.sensor() != null
                        ? "unknown sensor '" + s.sensor() + "'; run 'list' to see the sensors"
                        : agent + "; run 'list' to see the sensors";
            case UNKNOWN_COMMAND:
                return s.sensor() != null && s.command() != null
                        ? "sensor '" + s.sensor() + "' has no command '" + s.command() + "'; run 'commands "
                                + s.sensor() + "' to see its commands"
                        : agent + "; run 'commands <sensor>' to see the commands";
            case UNKNOWN_PROTOCOL:
                return s.protocol() != null
                        ? "unknown protocol '" + s.protocol() + "'; run 'protocols' to see the protocols"
                        : agent + "; run 'protocols' to see the protocols";
            case INVALID_ARGUMENT:
                return "the agent rejected the arguments: " + agent
                        + (s.sensor() != null ? "; run 'commands " + s.sensor() + "' to see what they allow" : "");
            case INVALID_DOCUMENT:
                return "the agent rejected the document: " + agent;
            case OVERLOADED:
                return "the agent is too busy right now (" + agent + "); try again later";
            case UNAUTHENTICATED:
                return "the agent refused the credentials: " + agent;
            default:
                return "the agent failed the request (" + e.code() + "): " + agent;
        }
    }
}
