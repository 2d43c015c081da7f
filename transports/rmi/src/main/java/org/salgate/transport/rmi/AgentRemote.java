package org.salgate.transport.rmi;

import java.rmi.Remote;
import java.rmi.RemoteException;

/**
 * The object an RMI agent hands a client that asks its port for it (see {@code AgentConnection}).
 * Everything after {@link #open} travels as encoded frames through the returned session.
 */
public interface AgentRemote extends Remote {

    /**
     * Opens a session: the client sends its hello and requests through it, and polls it for the
     * frames the agent sends.
     *
     * @throws RemoteException if the agent is stopping or cannot be reached
     */
    SessionRemote open() throws RemoteException;
}
