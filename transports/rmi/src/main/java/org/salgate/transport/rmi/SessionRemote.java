package org.salgate.transport.rmi;

import java.rmi.Remote;
import java.rmi.RemoteException;

/** One client's session on an RMI agent, exported by the agent for that client alone. */
public interface SessionRemote extends Remote {

    /**
     * Hands one encoded frame (a hello or a request) to the agent and, when the agent answers it
     * within a while, returns the answer: an 8-byte big-endian sequence number followed by the
     * encoded answer. Returns an empty array when the answer will be pushed instead (or never
     * comes because the session closed).
     *
     * @throws RemoteException if the session is closed or the frame was refused
     */
    byte[] call(byte[] frame) throws RemoteException;

    /** Closes the session from the client's side. */
    void close() throws RemoteException;
}
