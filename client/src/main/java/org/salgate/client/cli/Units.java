package org.salgate.client.cli;

import java.util.concurrent.CompletableFuture;

import org.salgate.client.SalClient;
import org.salgate.sensorml.Cml;
import org.salgate.sensorml.CommandDescription;

/** Finds the unit of a command's values from its CML, for display only: any failure gives no unit. */
final class Units {

    private Units() {}

    static CompletableFuture<String> of(SalClient client, String sensor, String command) {
        return client.listCommandsXml(sensor).handle((xml, error) -> {
            if (error != null) {
                return "";
            }
            try {
                for (CommandDescription c : Cml.read(xml)) {
                    if (c.id().equals(command)) {
                        return c.responseUnit();
                    }
                }
            } catch (Exception | LinkageError e) {
                // the unit is a nicety; the reading itself is shown without it
            }
            return "";
        });
    }
}
