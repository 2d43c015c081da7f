package org.salgate.transport.rmi;

import java.rmi.Remote;
import java.rmi.RemoteException;

/** One client's session on an RMI agent, exported by the agent for that client alone. */
public interface SessionRemote extends Remote {

    /**
     * Hands one encoded frame (a hello or a request) to the agent. Every answer comes back through
     * the client's {@link CallbackRemote}, in the order the agent sent it.
     *
     * @throws RemoteException if the session is closed or the frame was refused
     */
    void call(byte[] frame) throws RemoteException;

    /** Closes the session from the client's side. */
    void close() throws RemoteException;
}
