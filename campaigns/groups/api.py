"""The REST API of groups (docs/api.md, "REST API"): groups, members, campaigns and
sessions. Same access and refusals as every campaigns API module (``campaigns.play.api``).
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from campaigns.access import get_group_for_user
from campaigns.api_common import FIELD_ERRORS, WRITE_ERRORS
from campaigns.groups.services import (
    add_member,
    change_role,
    create_group,
    fill_in_session,
    new_campaign,
    players_named,
    remove_member,
)
from campaigns.models import NAME_LENGTH, NOTES_LENGTH, Campaign, Group, Membership, Player, Session
from config.http import AuthenticatedRequest, api_view
from rules.game import CHAPTERS


class GroupIn(serializers.Serializer):
    name = serializers.CharField(max_length=NAME_LENGTH)
    players = serializers.ListField(
        child=serializers.CharField(max_length=NAME_LENGTH), max_length=12, default=list
    )


class PlayerOut(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "name"]


class GroupOut(serializers.ModelSerializer):
    players: serializers.Field = PlayerOut(many=True, read_only=True)

    class Meta:
        model = Group
        fields = ["id", "name", "players", "created"]


class MemberIn(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    role = serializers.ChoiceField(choices=Membership.Role.choices, default=Membership.Role.MEMBER)


class RoleIn(serializers.Serializer):
    role = serializers.ChoiceField(choices=Membership.Role.choices)


class MemberOut(serializers.ModelSerializer):
    username = serializers.CharField(source="user.username")

    class Meta:
        model = Membership
        fields = ["id", "username", "role"]


class CampaignIn(serializers.Serializer):
    kind = serializers.ChoiceField(choices=Campaign.Kind.choices, default=Campaign.Kind.NORMAL)
    start_chapter = serializers.IntegerField(
        min_value=CHAPTERS[0], max_value=CHAPTERS[-1], default=1
    )
    passed = serializers.ListField(
        child=serializers.CharField(max_length=20),
        max_length=40,
        default=list,
        help_text="More clocks already passed, beyond the chapters before start_chapter.",
    )


class CampaignOut(serializers.ModelSerializer):
    class Meta:
        model = Campaign
        fields = ["id", "kind", "bonus_tokens", "created", "completed"]


class SessionIn(serializers.Serializer):
    date = serializers.DateField(required=False)
    players = serializers.ListField(
        child=serializers.CharField(max_length=NAME_LENGTH), default=list
    )
    notes = serializers.CharField(
        max_length=NOTES_LENGTH, required=False, allow_blank=True, default=""
    )


class SessionOut(serializers.ModelSerializer):
    players: serializers.Field = serializers.SlugRelatedField(
        many=True, read_only=True, slug_field="name"
    )

    class Meta:
        model = Session
        fields = ["id", "date", "players", "notes"]


@extend_schema(methods=["GET"], responses={200: GroupOut(many=True)}, summary="My groups")
@extend_schema(
    methods=["POST"],
    request=GroupIn,
    responses={201: GroupOut, 400: FIELD_ERRORS},
    summary="New group",
)
@api_view(["GET", "POST"])
def group_list(request: AuthenticatedRequest) -> Response:
    if request.method == "GET":
        groups = Group.objects.filter(memberships__user=request.user.pk).prefetch_related("players")
        return Response(GroupOut(groups, many=True).data)
    data = GroupIn(data=request.data)
    data.is_valid(raise_exception=True)
    group = create_group(
        request.user,
        data.validated_data["name"],
        data.validated_data["players"],
    )
    return Response(GroupOut(group).data, status=status.HTTP_201_CREATED)


@extend_schema(responses={200: GroupOut}, summary="A group")
@api_view(["GET"])
def group_detail(request: AuthenticatedRequest, group_id: int) -> Response:
    group, _membership = get_group_for_user(request.user, group_id)
    return Response(GroupOut(group).data)


@extend_schema(methods=["GET"], responses={200: MemberOut(many=True)}, summary="Members")
@extend_schema(
    methods=["POST"], request=MemberIn, responses={201: MemberOut, **WRITE_ERRORS}, summary="Invite"
)
@api_view(["GET", "POST"])
def members(request: AuthenticatedRequest, group_id: int) -> Response:
    """Everyone sees the members; only owners add one (by username)."""
    if request.method == "GET":
        group, _membership = get_group_for_user(request.user, group_id)
        rows = group.memberships.select_related("user").order_by("id")
        return Response(MemberOut(rows, many=True).data)
    group, _membership = get_group_for_user(request.user, group_id, owner=True)
    data = MemberIn(data=request.data)
    data.is_valid(raise_exception=True)
    membership = add_member(group, data.validated_data["username"], data.validated_data["role"])
    return Response(MemberOut(membership).data, status=status.HTTP_201_CREATED)


@extend_schema(methods=["PATCH"], request=RoleIn, responses={200: MemberOut}, summary="Role")
@extend_schema(methods=["DELETE"], request=None, responses={204: None}, summary="Remove")
@api_view(["PATCH", "DELETE"])
def member_detail(request: AuthenticatedRequest, group_id: int, member_id: int) -> Response:
    group, _membership = get_group_for_user(request.user, group_id, owner=True)
    member = get_object_or_404(group.memberships.select_related("user"), pk=member_id)
    if request.method == "DELETE":
        remove_member(group, member)
        return Response(status=status.HTTP_204_NO_CONTENT)
    data = RoleIn(data=request.data)
    data.is_valid(raise_exception=True)
    change_role(group, member, data.validated_data["role"])
    return Response(MemberOut(member).data)


@extend_schema(methods=["GET"], responses={200: CampaignOut(many=True)}, summary="Campaigns")
@extend_schema(
    methods=["POST"],
    request=CampaignIn,
    responses={201: CampaignOut, **WRITE_ERRORS},
    summary="New campaign",
)
@api_view(["GET", "POST"])
def campaigns(request: AuthenticatedRequest, group_id: int) -> Response:
    """POST starts a new campaign (``start_chapter`` > 1 starts mid-game; ``kind: rebirth``
    once Rebirth is unlocked). The newest campaign is the one played."""
    if request.method == "GET":
        group, _membership = get_group_for_user(request.user, group_id)
        return Response(CampaignOut(group.campaigns.order_by("id"), many=True).data)
    group, _membership = get_group_for_user(request.user, group_id, write=True)
    data = CampaignIn(data=request.data)
    data.is_valid(raise_exception=True)
    values = data.validated_data
    campaign = new_campaign(group, values["kind"], values["start_chapter"], values["passed"])
    return Response(CampaignOut(campaign).data, status=status.HTTP_201_CREATED)


@extend_schema(methods=["GET"], responses={200: SessionOut(many=True)}, summary="Sessions")
@extend_schema(
    methods=["POST"],
    request=SessionIn,
    responses={201: SessionOut, **WRITE_ERRORS},
    summary="Start",
)
@api_view(["GET", "POST"])
def sessions(request: AuthenticatedRequest, group_id: int) -> Response:
    """POST says who is at the table (``fill_in_session``, as the sessions page
    does): the day's session not yet played with its players is filled in, else a new one
    starts; either way the answer is 201 with the session."""
    if request.method == "GET":
        group, _membership = get_group_for_user(request.user, group_id)
        rows = group.current_campaign().sessions.prefetch_related("players")
        return Response(SessionOut(rows, many=True).data)
    group, _membership = get_group_for_user(request.user, group_id, write=True)
    data = SessionIn(data=request.data)
    data.is_valid(raise_exception=True)
    session = fill_in_session(
        group.current_campaign(),
        players_named(group, data.validated_data["players"]),
        data.validated_data.get("date"),
        data.validated_data["notes"],
    )
    return Response(SessionOut(session).data, status=status.HTTP_201_CREATED)
