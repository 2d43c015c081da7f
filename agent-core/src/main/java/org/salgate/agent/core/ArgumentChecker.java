package org.salgate.agent.core;

import java.util.LinkedHashMap;
import java.util.Map;
import org.salgate.sensorml.Argument;
import org.salgate.sensorml.CommandDescription;
import org.salgate.model.ErrorCode;

/**
 * Checks a call's arguments against a command's {@link Argument}s: no unknown names, no missing
 * required ones, values of the right type within their bounds; defaults are filled in.
 */
public final class ArgumentChecker {

    private ArgumentChecker() {}

    /**
     * The arguments to hand to the plugin.
     *
     * @throws CallException with {@link ErrorCode#INVALID_ARGUMENT} saying which argument is wrong and why
     */
    public static Map<String, String> check(String sensorId, CommandDescription command, Map<String, String> given)
            throws CallException {
        Map<String, Argument> declared = new LinkedHashMap<>();
        for (Argument a : command.arguments()) {
            declared.put(a.name(), a);
        }
        for (String name : given.keySet()) {
            if (!declared.containsKey(name)) {
                throw invalid("command '" + command.id() + "' of sensor " + sensorId + " has no argument '" + name
                        + "'; it takes " + (declared.isEmpty() ? "none" : String.join(", ", declared.keySet())));
            }
        }
        Map<String, String> checked = new LinkedHashMap<>();
        for (Argument a : declared.values()) {
            String value = given.get(a.name());
            if (value == null) {
                if (a.defaultValue() != null) {
                    checked.put(a.name(), a.defaultValue());
                } else if (!a.optional()) {
                    throw invalid("command '" + command.id() + "' of sensor " + sensorId
                            + " needs argument '" + a.name() + "' (" + describe(a) + ")");
                }
                continue;
            }
            checkValue(sensorId, command, a, value);
            checked.put(a.name(), value);
        }
        return Map.copyOf(checked);
    }

    private static void checkValue(String sensorId, CommandDescription command, Argument a, String value)
            throws CallException {
        String where = "argument '" + a.name() + "' of command '" + command.id() + "' of sensor " + sensorId;
        String v = value.trim();
        double number;
        switch (a.type()) {
            case STRING:
                return;
            case BOOLEAN:
                if (!v.equalsIgnoreCase("true") && !v.equalsIgnoreCase("false")) {
                    throw invalid(where + " must be true or false, not '" + value + "'");
                }
                return;
            case INTEGER:
                try {
                    number = Long.parseLong(v);
                } catch (NumberFormatException e) {
                    throw invalid(where + " must be a whole number (" + describe(a) + "), not '" + value + "'");
                }
                break;
            case DECIMAL:
                try {
                    number = Double.parseDouble(v);
                } catch (NumberFormatException e) {
                    number = Double.NaN;
                }
                if (!Double.isFinite(number)) {
                    throw invalid(where + " must be a number (" + describe(a) + "), not '" + value + "'");
                }
                break;
            default:
                throw new IllegalStateException("unknown argument type " + a.type());
        }
        if ((a.min() != null && number < a.min()) || (a.max() != null && number > a.max())) {
            throw invalid(where + " must be " + bounds(a) + ", not " + value);
        }
    }

    private static String describe(Argument a) {
        String type = a.type().name().toLowerCase(java.util.Locale.ROOT);
        String bounds = bounds(a);
        return bounds.isEmpty() ? type : type + " " + bounds;
    }

    private static String bounds(Argument a) {
        if (a.min() != null && a.max() != null) {
            return "from " + format(a.min()) + " to " + format(a.max());
        }
        if (a.min() != null) {
            return "at least " + format(a.min());
        }
        if (a.max() != null) {
            return "at most " + format(a.max());
        }
        return "";
    }

    private static String format(double d) {
        return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
    }

    private static CallException invalid(String message) {
        return new CallException(ErrorCode.INVALID_ARGUMENT, message);
    }
}
