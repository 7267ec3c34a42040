"""Longhouse in containers: the images, a private Docker engine for tests, the stack started
with testcontainers and the pytest plugin that gives users' tests a client of it.

* :mod:`.images`: the wheelhouse, the Debian base image made with debootstrap, the project
  image (``make images``);
* :mod:`.engine`: a ``dockerd`` of one's own (its own socket and data root, no bridge);
* :mod:`.stack`: every process of the stack as a container on host networking;
* :mod:`.pytest_plugin`: the fixtures ``longhouse_stack`` and ``longhouse_client``;
* :mod:`.health`: the containers' health check, one per role.
"""
