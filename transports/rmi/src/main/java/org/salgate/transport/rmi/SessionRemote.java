package org.salgate.transport.rmi;

import java.rmi.Remote;
import java.rmi.RemoteException;

/** One client's session on an RMI agent, exported by the agent for that client alone. */
public interface SessionRemote extends Remote {

    /**
     * Hands one encoded frame (a hello or a request) to the agent; its answer, like everything else
     * the agent sends, comes through the client's {@link CallbackRemote}.
     *
     * @throws RemoteException if the session is closed or the frame was refused
     */
    void call(byte[] frame) throws RemoteException;

    /** Closes the session from the client's side. */
    void close() throws RemoteException;
}
